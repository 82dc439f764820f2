import Foundation
import Testing
import TinyDependency
import TinyDependencyBuiltins
import TinyDependencyTesting

/// Runs `body` inside `trait`'s scope, as Swift Testing would for a test case, so that what the
/// trait's closure reports lands in the running test.
func runInside(
  _ trait: DependencyTrait,
  _ body: @escaping @Sendable () async throws -> Void = {}
) async throws {
  let test = try #require(Test.current)
  try await trait.provideScope(for: test, testCase: nil, performing: body)
}

/// A built-in's placeholder built by a key-path write is quiet wherever the write happens; a
/// placeholder called is reported wherever the call happens.
@Suite("Placeholders while overrides apply")
struct PlaceholderWhileOverridingTests {
  static let paris = TimeZone(identifier: "Europe/Paris")!

  @Test(.dependencies)
  func aKeyPathWriteInWithDependenciesIsQuiet() {
    withDependencies {
      $0.calendar.timeZone = Self.paris
    } operation: {
      #expect(DependencyValues.current.calendar.timeZone == Self.paris)
    }
  }

  @Test(.dependencies)
  func anAsyncKeyPathWriteInWithDependenciesIsQuiet() async {
    await withDependencies {
      await Task.yield()
      $0.calendar.locale = Locale(identifier: "fr_FR")
    } operation: {
      #expect(DependencyValues.current.calendar.locale?.identifier == "fr_FR")
    }
  }

  @Test func aPlaceholderCalledInATraitsClosureIsReported() async throws {
    try await withKnownIssue {
      try await runInside(.dependencies { $0.uuid = .constant($0.uuid()) })
    } matching: {
      isPlaceholderIssue($0, "uuid")
    }
  }

  @Test func aDateReadInATraitsClosureIsReported() async throws {
    try await withKnownIssue {
      try await runInside(.dependencies { $0.date = .constant($0.date.now) })
    } matching: {
      isPlaceholderIssue($0, "date")
    }
  }

  @Test func aPlaceholderCalledInWithDependenciesUpdateIsReported() {
    withKnownIssue {
      withDependencies {
        _ = $0.withRandomNumberGenerator { $0.next() }
      } operation: {
      }
    } matching: {
      isPlaceholderIssue($0, "withRandomNumberGenerator")
    }
  }
}
