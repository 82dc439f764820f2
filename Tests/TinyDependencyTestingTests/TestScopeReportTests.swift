import Testing
import TinyDependency

@testable import TinyDependencyTesting

/// Reads after a test ended and overrides that had no effect. Each test runs a trait's scope by
/// hand, as Swift Testing would for a test case, so the reports land in the running test.
@Suite("Reports at the end of a test")
struct TestScopeReportTests {
  /// Runs `body` the way a test with `traits` runs: the outermost trait's scope ends when it
  /// returns.
  func runAsTest(
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

  // MARK: - Leaks

  @Test func aTaskThatOutlivesItsTestIsReportedWithTheTestsName() async throws {
    let leaked = Gate()
    let reported = Gate()
    try await withKnownIssue {
      try await runAsTest([.strictDependencies]) {
        Task {
          await leaked.wait()
          _ = DependencyValues.current.greeting
          reported.open()
        }
      }
      leaked.open()
      await reported.wait()
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains("GreetingKey was read through the dependencies of test")
          && $0.rawValue.contains("aTaskThatOutlivesItsTestIsReportedWithTheTestsName()")
          && $0.rawValue.contains("ms after it ended")
      }
    }
  }

  @Test func anObjectThatKeptTheTestsScopeIsReportedOncePerKey() async throws {
    let holder = Holder()
    try await runAsTest([.strictDependencies]) {
      holder.model = CounterModel()
    }
    let model = try #require(holder.model)
    let scope = try #require(model.scope)
    #expect(scope.hasEnded)
    let issues = Counter()
    withKnownIssue {
      // The reads still return the test's values.
      #expect(model.counter.next() == 1)
      #expect(model.counter.next() == 2)
    } matching: { issue in
      _ = issues.next()
      return issue.comments.contains { $0.rawValue.contains("CounterKey was read") }
    }
    #expect(issues.next() == 2, "one issue for two reads of one key")
  }

  @Test func anEscapedContinuationUsedAfterTheTestIsReported() async throws {
    let holder = ContinuationHolder()
    try await runAsTest([.strictDependencies]) {
      withEscapedDependencies { holder.continuation = $0 }
    }
    let continuation = try #require(holder.continuation)
    withKnownIssue {
      continuation.yield {
        #expect(DependencyValues.current.farewell == "test bye")
      }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("FarewellKey was read") }
    }
  }

  @Test func aReadInsideTheTestIsNoLeak() async throws {
    try await runAsTest([.strictDependencies]) {
      #expect(DependencyValues.current.greeting == "test hello")
      #expect(DependencyValues.current.testScope?.hasEnded == false)
    }
  }

  @Test func aLateReadOfAnEndedContainerIsAnIssueInStrictMode() {
    var values = DependencyValues(
      context: .test,
      testScope: TestScope(name: "earlierTest()", strict: true)
    )
    values.greeting = "set"
    values.testScope?.end()
    withKnownIssue {
      #expect(values.greeting == "set")
      #expect(values.counter.next() == 1)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("test earlierTest()") }
    }
  }

  // MARK: - Overrides with no effect

  @Test func anOverrideNothingReadIsReportedByName() async throws {
    try await withKnownIssue {
      try await runAsTest([.strictDependencies, .dependency(\.greeting, "unused")]) {
        #expect(DependencyValues.current.farewell == "test bye")
      }
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains("overrode GreetingKey but nothing read it")
      }
    }
  }

  @Test func anOverrideNothingReadIsReportedAtTheTestNotInsideTheLibrary() async throws {
    try await withKnownIssue {
      try await runAsTest([.strictDependencies, .dependency(\.greeting, "unused")]) {}
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("overrode GreetingKey") }
        && issue.sourceLocation?.fileName == "TestScopeReportTests.swift"
    }
  }

  @Test func anOverrideInsideTheTestCountsToo() async throws {
    try await withKnownIssue {
      try await runAsTest([.strictDependencies]) {
        withDependencies {
          $0.farewell = "never read"
        } operation: {
        }
      }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("overrode FarewellKey but nothing read it") }
    }
  }

  @Test func overridesThatWereReadAreNotReported() async throws {
    try await runAsTest([.strictDependencies, .dependency(\.greeting, "used")]) {
      withDependencies {
        $0.farewell = "also used"
      } operation: {
        #expect(DependencyValues.current.farewell == "also used")
      }
      #expect(DependencyValues.current.greeting == "used")
    }
  }

  @Test func withoutStrictModeUnusedOverridesAreQuiet() async throws {
    try await runAsTest([.dependency(\.greeting, "unused")]) {}
  }

  // MARK: - Trait closures

  @Test(
    .dependencies {
      try await Task.sleep(nanoseconds: 1_000)
      $0.greeting = try await loadGreeting()
    }
  )
  func traitClosuresMayAwaitAndThrow() {
    #expect(DependencyValues.current.greeting == "loaded")
  }

  @Test func aThrowingTraitClosureFailsTheTest() async {
    await #expect(throws: LoadError.self) {
      try await runAsTest([.dependencies { _ in throw LoadError() }]) {
        Issue.record("the test must not run")
      }
    }
  }
}

struct LoadError: Error {}

@Sendable func loadGreeting() async throws -> String { "loaded" }

/// Holds an object past the end of the test that made it. `@unchecked Sendable`: written by one
/// task, then read after it finished.
final class Holder: @unchecked Sendable {
  var model: CounterModel?
}

/// Holds an escaped scope past the end of the test. `@unchecked Sendable`: written by one task,
/// then read after it finished.
final class ContinuationHolder: @unchecked Sendable {
  var continuation: DependencyValues.Continuation?
}

/// An object made in a test, keeping the test's scope through its wrapper.
/// `@unchecked Sendable`: its wrapper is never reassigned.
final class CounterModel: @unchecked Sendable {
  @Dependency(\.counter) var counter
  let scope = DependencyValues.current.testScope
}

/// A one-shot gate for tasks.
final class Gate: Sendable {
  private let stream: AsyncStream<Void>
  private let continuation: AsyncStream<Void>.Continuation

  init() {
    (stream, continuation) = AsyncStream.makeStream()
  }

  func open() { continuation.finish() }

  func wait() async {
    for await _ in stream {}
  }
}

#if os(Linux)
  import Foundation
  import TestSubprocess

  /// The variable that enables ``TraitReportProbe``.
  let traitProbeVariable = "TINY_DEPENDENCY_TRAIT_PROBE"

  /// Real traited tests that leak: run only by ``TraitReportEndToEndTests``, in a child process.
  @Suite(
    "Trait report probe",
    .enabled(if: ProcessInfo.processInfo.environment[traitProbeVariable] == "1")
  )
  struct TraitReportProbe {
    @Test(.dependencies)
    func leaksATask() {
      Task {
        try await Task.sleep(nanoseconds: 100_000_000)
        _ = DependencyValues.current.counter
      }
    }

    @Test(.strictDependencies)
    func leaksATaskStrictly() {
      Task {
        try await Task.sleep(nanoseconds: 100_000_000)
        _ = DependencyValues.current.farewell
      }
    }

    @Test(.strictDependencies, .dependency(\.greeting, "never read"))
    func overridesSomethingItNeverReads() {}

    @Test func outlivesTheLeaks() async throws {
      try await Task.sleep(nanoseconds: 600_000_000)
    }
  }

  @Suite("Reports of real traited tests")
  struct TraitReportEndToEndTests {
    @Test func leaksAndUnusedOverridesAreReportedWithTheTestsName() async throws {
      let result = try await run(
        URL(fileURLWithPath: CommandLine.arguments[0]),
        arguments: ["--testing-library", "swift-testing", "--filter", "TraitReportProbe"],
        environment: [traitProbeVariable: "1", "NO_COLOR": "1"]
      )
      let text = result.standardOutput + result.standardError
      #expect(result.status != 0, "strict mode fails the run")
      #expect(
        text.contains("CounterKey was read through the dependencies of test leaksATask()"),
        "\(text)"
      )
      #expect(text.contains("leaksATask() recorded a warning"), "not strict: a warning")
      #expect(
        text.contains("FarewellKey was read through the dependencies of test leaksATaskStrictly()")
      )
      #expect(text.contains("leaksATaskStrictly() recorded an issue"), "strict: an issue")
      #expect(
        text.contains(
          "Test overridesSomethingItNeverReads() overrode GreetingKey but nothing read it"
        )
      )
    }
  }
#endif
