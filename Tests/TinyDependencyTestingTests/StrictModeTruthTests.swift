import Testing
import TinyDependency
import TinyDependencyLifecycle
import TinyDependencyTesting

/// Runs `body` the way a test with `traits` runs, outermost first: the outermost trait's scope
/// ends when it returns, and its reports land in the running test.
func runTraits(
  _ traits: [DependencyTrait],
  _ body: @escaping @Sendable () async throws -> Void
) async throws {
  let test = try #require(Test.current)
  var function = body
  for trait in traits.reversed() {
    let inner = function
    function = { try await trait.provideScope(for: test, testCase: nil, performing: inner) }
  }
  try await function()
}

/// Strict mode adds reports and never changes a value; its reports of overrides are never false.
@Suite("Strict mode tells the truth")
struct StrictModeTruthTests {
  // MARK: - Values the traits set up

  @Test func strictModeKeepsStateATraitSetUpWhenItComesFirst() async throws {
    try await runTraits([.strictDependencies, .dependencies { _ = $0.counter.next() }]) {
      #expect(DependencyValues.current.counter.next() == 2)
    }
  }

  @Test func strictModeKeepsStateATraitSetUpWhenItComesLast() async throws {
    try await runTraits([.dependencies { _ = $0.counter.next() }, .strictDependencies]) {
      #expect(DependencyValues.current.counter.next() == 2)
    }
  }

  @Test func aLiveFallbackBuiltByATraitIsStillReportedInStrictMode() async throws {
    try await withKnownIssue {
      try await runTraits([.dependencies { _ = $0.liveOnly }, .strictDependencies]) {
        #expect(DependencyValues.current.liveOnly == "live only")
      }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("LiveOnlyKey has no testValue of its own") }
        && issue.sourceLocation?.fileName == "StrictModeTruthTests.swift"
    }
  }

  // MARK: - Overrides that shaped other values

  @Test func anOverrideReadToBuildAValueATraitAdjustsWasUsed() async throws {
    try await runTraits(
      [
        .strictDependencies, .dependency(\.baseURL, "https://suite"),
        .dependency(\.client.timeout, 5),
      ]
    ) {
      #expect(DependencyValues.current.client == Client(baseURL: "https://suite", timeout: 5))
    }
  }

  @Test func anOverrideReadInTheSameClosureWasUsed() async throws {
    try await runTraits(
      [
        .strictDependencies,
        .dependencies {
          $0.baseURL = "https://closure"
          $0.client = Client(baseURL: $0.baseURL, timeout: 1)
        },
      ]
    ) {
      #expect(DependencyValues.current.client.baseURL == "https://closure")
    }
  }

  @Test func anOuterOverrideThatALaterOneReplacedIsNotReported() async throws {
    try await runTraits([.strictDependencies, .dependency(\.greeting, "suite")]) {
      withDependencies {
        $0.greeting = "test"
      } operation: {
        #expect(DependencyValues.current.greeting == "test")
      }
    }
  }

  // MARK: - Overrides that controlled nothing

  @Test func anInnerOverrideNothingReadIsReportedThoughAnOuterOneWasRead() async throws {
    try await withKnownIssue {
      try await runTraits([.strictDependencies, .dependency(\.greeting, "1")]) {
        #expect(DependencyValues.current.greeting == "1")
        await withDependencies {
          $0.greeting = "2"
        } operation: {
          let seen = await Task.detached { DependencyValues.current.greeting }.value
          #expect(seen != "2")
        }
      }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("overrode GreetingKey but nothing read it") }
    }
  }

  @Test func preparedDependenciesSetNoOverrideOfTheirOwn() async throws {
    try await runTraits([.strictDependencies]) {
      try await withPreparedDependencies([]) {
        #expect(DependencyValues.current.greeting == "test hello")
      }
    }
  }
}

struct Client: Equatable, Sendable {
  var baseURL: String
  var timeout: Int
}

enum BaseURLKey: DependencyKey {
  static let defaultValue = "https://live"
  static let testValue = "https://test"
}

enum ClientKey: DependencyKey {
  static var defaultValue: Client { Client(baseURL: "https://live", timeout: 60) }
  static var testValue: Client {
    Client(baseURL: DependencyValues.current.baseURL, timeout: 30)
  }
}

extension DependencyValues {
  var baseURL: String {
    get { self[BaseURLKey.self] }
    set { self[BaseURLKey.self] = newValue }
  }
  var client: Client {
    get { self[ClientKey.self] }
    set { self[ClientKey.self] = newValue }
  }
}
