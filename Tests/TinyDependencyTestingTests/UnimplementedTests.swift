import Testing
import TinyDependency
import TinyDependencyTesting

/// A client of closures, as a test double would be written without macros.
struct APIClient: Sendable {
  var ping: @Sendable () -> Void
  var version: @Sendable () -> Int
  var fetchUser: @Sendable (Int) async throws -> String
  var search: @Sendable (String, Int) -> [String]
  var upload: @Sendable (String, Int, Bool) async -> Bool
  var delete: @Sendable (Int) throws -> Void
}

@Suite("Unimplemented test doubles")
struct UnimplementedTests {
  /// Runs `body`, expecting exactly one issue that names `endpoint` and this test.
  func expectOneReport(
    of endpoint: String,
    _ body: () async throws -> Void
  ) async rethrows {
    let test = Test.current?.name ?? "?"
    let count = Counter()
    try await withKnownIssue {
      try await body()
    } matching: { issue in
      _ = count.next()
      return issue.comments.contains {
        $0.rawValue.contains("Unimplemented: \(endpoint) was called in test \(test)")
      }
    }
    #expect(count.next() == 2, "exactly one issue")
  }

  // MARK: - Synchronous, not throwing

  @Test func noArgumentsReturningNothing() async {
    let ping: @Sendable () -> Void = unimplemented("APIClient.ping")
    await expectOneReport(of: "APIClient.ping") { ping() }
  }

  @Test func noArgumentsReturningThePlaceholder() async {
    let version: @Sendable () -> Int = unimplemented("APIClient.version", placeholder: 7)
    await expectOneReport(of: "APIClient.version") { #expect(version() == 7) }
  }

  @Test func oneArgument() async {
    let f: @Sendable (Int) -> String = unimplemented("f", placeholder: "p")
    await expectOneReport(of: "f") { #expect(f(1) == "p") }
  }

  @Test func twoArguments() async {
    let f: @Sendable (String, Int) -> [String] = unimplemented("APIClient.search", placeholder: [])
    await expectOneReport(of: "APIClient.search") { #expect(f("a", 1) == []) }
  }

  @Test func threeArguments() async {
    let f: @Sendable (String, Int, Bool) -> Bool = unimplemented("g", placeholder: false)
    await expectOneReport(of: "g") { #expect(f("a", 1, true) == false) }
  }

  @Test func argumentsReturningNothing() async {
    let one: @Sendable (Int) -> Void = unimplemented("one")
    let two: @Sendable (Int, Int) -> Void = unimplemented("two")
    let three: @Sendable (Int, Int, Int) -> Void = unimplemented("three")
    await expectOneReport(of: "one") { one(1) }
    await expectOneReport(of: "two") { two(1, 2) }
    await expectOneReport(of: "three") { three(1, 2, 3) }
  }

  // MARK: - Throwing

  @Test func throwingClosuresThrowAfterReporting() async {
    let zero: @Sendable () throws -> Int = unimplemented("zero")
    let one: @Sendable (Int) throws -> Int = unimplemented("one")
    let two: @Sendable (Int, Int) throws -> Int = unimplemented("two")
    let three: @Sendable (Int, Int, Int) throws -> Void = unimplemented("three")
    await expectOneReport(of: "zero") {
      #expect(throws: UnimplementedError(endpoint: "zero")) { try zero() }
    }
    await expectOneReport(of: "one") { #expect(throws: UnimplementedError.self) { try one(1) } }
    await expectOneReport(of: "two") { #expect(throws: UnimplementedError.self) { try two(1, 2) } }
    await expectOneReport(of: "three") {
      #expect(throws: UnimplementedError.self) { try three(1, 2, 3) }
    }
  }

  @Test func throwingClosuresMayReturnAPlaceholderInstead() async throws {
    let f: @Sendable (Int, Int) throws -> Int = unimplemented("f", placeholder: 3)
    try await expectOneReport(of: "f") {
      let value = try f(1, 2)
      #expect(value == 3)
    }
  }

  // MARK: - Asynchronous

  @Test func asyncClosures() async {
    let zero: @Sendable () async -> Int = unimplemented("zero", placeholder: 0)
    let one: @Sendable (Int) async -> Void = unimplemented("one")
    let two: @Sendable (Int, Int) async -> Int = unimplemented("two", placeholder: 2)
    let three: @Sendable (String, Int, Bool) async -> Bool = unimplemented(
      "three",
      placeholder: true
    )
    await expectOneReport(of: "zero") { #expect(await zero() == 0) }
    await expectOneReport(of: "one") { await one(1) }
    await expectOneReport(of: "two") { #expect(await two(1, 2) == 2) }
    await expectOneReport(of: "three") { #expect(await three("a", 1, true)) }
  }

  @Test func asyncThrowingClosures() async throws {
    let zero: @Sendable () async throws -> Int = unimplemented("zero")
    let one: @Sendable (Int) async throws -> String = unimplemented("APIClient.fetchUser")
    let two: @Sendable (Int, Int) async throws -> Int = unimplemented("two", placeholder: 5)
    let three: @Sendable (Int, Int, Int) async throws -> Void = unimplemented("three")
    await expectOneReport(of: "zero") {
      await #expect(throws: UnimplementedError.self) { try await zero() }
    }
    await expectOneReport(of: "APIClient.fetchUser") {
      await #expect(throws: UnimplementedError.self) { try await one(42) }
    }
    try await expectOneReport(of: "two") {
      let value = try await two(1, 2)
      #expect(value == 5)
    }
    await expectOneReport(of: "three") {
      await #expect(throws: UnimplementedError.self) { try await three(1, 2, 3) }
    }
  }

  @Test func aWholeClientOfUnimplementedEndpoints() async {
    let client = APIClient(
      ping: unimplemented("APIClient.ping"),
      version: unimplemented("APIClient.version", placeholder: 0),
      fetchUser: unimplemented("APIClient.fetchUser"),
      search: unimplemented("APIClient.search", placeholder: []),
      upload: unimplemented("APIClient.upload", placeholder: false),
      delete: unimplemented("APIClient.delete")
    )
    await expectOneReport(of: "APIClient.upload") {
      #expect(await client.upload("file", 1, true) == false)
    }
    await expectOneReport(of: "APIClient.delete") {
      #expect(throws: UnimplementedError.self) { try client.delete(1) }
    }
  }

  // MARK: - reportIssue

  @Test func reportIssueRecordsAnIssueOfTheRunningTest() {
    withKnownIssue {
      reportIssue("Analytics.track(signedIn) was not expected")
    } matching: { issue in
      issue.comments.contains { $0.rawValue == "Analytics.track(signedIn) was not expected" }
        && issue.sourceLocation?.fileName == "UnimplementedTests.swift"
    }
  }
}
