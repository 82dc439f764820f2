import Testing
import TinyDependency

enum NotesError: Error, Equatable {
  case offline
}

// A client's test value written with `unimplemented` in each of its forms.
struct NotesClient: Sendable {
  var fetch: @Sendable (_ id: Int) async throws -> String
  var save:
    @Sendable (_ id: Int, _ text: String, _ pinned: Bool, _ tags: [String]) async throws -> Void
  var count: @Sendable () -> Int
  var delete: @Sendable (_ id: Int) async -> Void
  var format: @Sendable (String, Int, Bool, Double, Character) -> String
  var sync: @Sendable () throws -> Void
  var search: @Sendable (_ query: String) async throws -> [String]
  var title: @Sendable (_ id: Int) async -> String
}

extension NotesClient: TestDependencyKey {
  static let testValue = NotesClient(
    fetch: unimplemented("NotesClient.fetch", throwing: NotesError.offline),
    save: unimplemented("NotesClient.save"),
    count: unimplemented("NotesClient.count", placeholder: 0),
    delete: unimplemented(),
    format: unimplemented("NotesClient.format", placeholder: "…"),
    sync: unimplemented(),
    search: unimplemented("NotesClient.search", placeholder: []),
    title: unimplemented("NotesClient.title", placeholder: "Untitled")
  )
}

@Suite(
  "unimplemented, reportIssue and withErrorReporting make test doubles as in swift-dependencies"
)
struct TestDoubleTests {
  let notes = NotesClient.testValue

  @Test func aDescribedEndpointReportsItsNameAndThrows() async {
    await withKnownIssue {
      await #expect(throws: UnimplementedError(endpoint: "NotesClient.save")) {
        try await notes.save(1, "text", true, ["a"])
      }
    } matching: { issue in
      mentions(issue, "Unimplemented: NotesClient.save was called")
    }
  }

  @Test func anEndpointThrowsTheErrorItWasGiven() async {
    await withKnownIssue {
      await #expect(throws: NotesError.offline) { try await notes.fetch(1) }
    } matching: { issue in
      mentions(issue, "Unimplemented: NotesClient.fetch")
    }
  }

  @Test func placeholdersAreReturnedForAnyNumberOfArguments() {
    withKnownIssue {
      #expect(notes.count() == 0)
      #expect(notes.format("a", 1, true, 2.5, "c") == "…")
    } matching: { issue in
      mentions(issue, "NotesClient.count") || mentions(issue, "NotesClient.format")
    }
  }

  @Test func asyncEndpointsReturnTheirPlaceholders() async {
    await withKnownIssue {
      #expect((try? await notes.search("milk")) == [])
      #expect(await notes.title(1) == "Untitled")
    } matching: { issue in
      mentions(issue, "NotesClient.search") || mentions(issue, "NotesClient.title")
    }
  }

  @Test func anEndpointWithoutADescriptionIsNamedFromWhereItWasMade() async {
    await withKnownIssue {
      await notes.delete(1)
      #expect(throws: UnimplementedError.self) { try notes.sync() }
    } matching: { issue in
      mentions(
        issue,
        "Unimplemented: the closure made in NotesClient at MigrationTests/TestDoubleTests.swift:"
      )
    }
  }

  @Test func aValueNotAClosureIsReportedAtOnce() {
    withKnownIssue {
      let limit: Int = unimplemented("Settings.limit", placeholder: 7)
      #expect(limit == 7)
    } matching: { issue in
      mentions(issue, "Unimplemented: Settings.limit")
    }
  }

  @Test func aCaughtErrorIsReported() {
    withKnownIssue {
      do {
        throw NotesError.offline
      } catch {
        reportIssue(error)
      }
    } matching: { issue in
      mentions(issue, "Caught error: offline")
    }
  }

  @Test func withErrorReportingReportsWhatItThrowsAndReturnsNil() async {
    let saved = withErrorReporting { 42 }
    #expect(saved == 42)
    withKnownIssue {
      let failed: Int? = withErrorReporting("Saving") { throw NotesError.offline }
      #expect(failed == nil)
    } matching: { issue in
      mentions(issue, "Saving: Caught error: offline")
    }
    await withKnownIssue {
      let fetched = await withErrorReporting { try await notes.fetch(1) }
      #expect(fetched == nil)
    }
  }

  @Test func isTestingIsTrueUnderTheTestRunner() {
    #expect(isTesting)
  }
}
