import TestSubprocess
import Testing

@testable import TinyDependency

@Suite("Reports outside tests print the call site")
struct ReportIssueTests {
  #if compiler(>=6.2) && (os(macOS) || os(Linux))
    /// Each runs in a process of its own, where no test library routes the report: it goes to
    /// standard error.
    @Test(.oneExitTestAtATime)
    func reportIssueWithAMessagePrintsFileIDAndLine() async throws {
      let result = try await #require(
        processExitsWith: .success,
        observing: [\.standardErrorContent]
      ) {
        reportIssue("Analytics.track was not expected", fileID: "App/Checkout.swift", line: 42)
      }
      let error = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(error == "App/Checkout.swift:42: Analytics.track was not expected\n")
    }

    @Test(.oneExitTestAtATime)

    func reportIssueWithAnErrorPrintsFileIDAndLine() async throws {
      let result = try await #require(
        processExitsWith: .success,
        observing: [\.standardErrorContent]
      ) {
        struct SaveFailed: Error {}
        reportIssue(SaveFailed(), "Saving", fileID: "App/Store.swift", line: 7)
      }
      let error = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(error == "App/Store.swift:7: Saving: Caught error: SaveFailed()\n")
    }

    @Test(.oneExitTestAtATime)

    func unimplementedCalledOutsideATestPrintsWhereItWasMade() async throws {
      let result = try await #require(
        processExitsWith: .success,
        observing: [\.standardErrorContent]
      ) {
        let fetch: @Sendable () -> Int = unimplemented(
          "Client.fetch",
          placeholder: 0,
          fileID: "App/Client.swift",
          line: 12
        )
        _ = fetch()
      }
      let error = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(error.hasPrefix("App/Client.swift:12: Unimplemented: Client.fetch was called."))
    }

    @Test(.oneExitTestAtATime)

    func withDependenciesFromAnObjectWithoutDependencyPrintsTheCallSite() async throws {
      let result = try await #require(
        processExitsWith: .success,
        observing: [\.standardErrorContent]
      ) {
        final class Plain {}
        withDependencies(from: Plain(), operation: {}, fileID: "App/Model.swift", line: 3)
      }
      let error = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(error.hasPrefix("App/Model.swift:3: withDependencies(from:) was given a Plain"))
    }

    @Test(.oneExitTestAtATime)

    func aReportWithNoSiteNamesTheLibrary() async throws {
      let result = try await #require(
        processExitsWith: .success,
        observing: [\.standardErrorContent]
      ) {
        IssueReporter.report("found inside the library")
      }
      let error = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(error == "TinyDependency: found inside the library\n")
    }
  #endif
}
