import Testing
import TinyDependency
import TinyDependencyTesting

/// The error that a test value's maker throws here.
private struct DatabaseUnavailable: Error, CustomStringConvertible {
  var description: String { "the database file is locked" }
}

/// Makes a greeting as a throwing factory of a test double would (opening a database, say).
private func makeGreeting(failing: Bool = false) throws -> String {
  if failing { throw DatabaseUnavailable() }
  return "made hello"
}

/// A type that is its own key, for the `.dependency(value)` form.
private struct Archive: TestDependencyKey, Equatable {
  var name: String
  static let testValue = Archive(name: "test archive")
}

/// Records whether a test body ran, across the trait's scope.
private actor Ran {
  private(set) var value = false
  func mark() { value = true }
}

/// A value made by a throwing expression, as `.dependency(\.defaultDatabase, try makeDatabase())`
/// is, in every form of the trait; a thrown error becomes an issue of the test that names the key.
@Suite("Dependency traits take values made by throwing expressions")
struct DependencyTraitThrowingValueTests {
  // MARK: - Each form compiles with `try`

  @Suite(.dependency(\.greeting, try makeGreeting()))
  struct KeyPathForm {
    @Test func theValueIsUsed() {
      #expect(DependencyValues.current.greeting == "made hello")
    }
  }

  @Test(.dependency(EndpointKey.self, try makeGreeting()))
  func theKeyTypeFormTakesAThrowingValue() {
    #expect(DependencyValues.current[EndpointUserKey.self] == "uses made hello")
  }

  @Test(.dependency(try Archive(name: makeGreeting())))
  func theOwnKeyFormTakesAThrowingValue() {
    #expect(DependencyValues.current[Archive.self] == Archive(name: "made hello"))
  }

  // MARK: - A thrown error is an issue that names the key

  @Test func anErrorFromAKeyPathValueIsAnIssueNamingTheKey() async throws {
    let ran = Ran()
    try await withKnownIssue {
      try await runTraits([.dependency(\.greeting, try makeGreeting(failing: true))]) {
        await ran.mark()
      }
    } matching: { issue in
      issue.error is DatabaseUnavailable
        && issue.comments.contains { $0.rawValue.contains("GreetingKey") }
    }
    #expect(await !ran.value, "the test body ran without the value it was to get")
  }

  @Test func anErrorFromAKeyTypeValueIsAnIssueNamingTheKey() async throws {
    let ran = Ran()
    try await withKnownIssue {
      try await runTraits([.dependency(EndpointKey.self, try makeGreeting(failing: true))]) {
        await ran.mark()
      }
    } matching: { issue in
      issue.error is DatabaseUnavailable
        && issue.comments.contains { $0.rawValue.contains("EndpointKey") }
    }
    #expect(await !ran.value)
  }

  @Test func anErrorFromAnOwnKeyValueIsAnIssueNamingTheKey() async throws {
    let ran = Ran()
    try await withKnownIssue {
      try await runTraits([.dependency(try Archive(name: makeGreeting(failing: true)))]) {
        await ran.mark()
      }
    } matching: { issue in
      issue.error is DatabaseUnavailable
        && issue.comments.contains { $0.rawValue.contains("Archive") }
    }
    #expect(await !ran.value)
  }

  @Test func theIssueSaysWhatHappenedAndTheFix() async throws {
    try await withKnownIssue {
      try await runTraits([.dependency(\.greeting, try makeGreeting(failing: true))]) {}
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains("for GreetingKey threw the database file is locked")
          && $0.rawValue.contains("did not run")
      }
    }
  }
}
