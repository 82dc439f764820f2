import Foundation
import TestSubprocess
import Testing

/// The real `swift package dependency-graph` on the broken fixture package
/// (Tests/Fixtures/BrokenGraph). It builds the fixture, about a minute on two cores from a cold
/// scratch directory, so it runs only when `TINY_DEPENDENCY_PLUGIN_TESTS=1` (`.ci/run` sets it).
@Suite(
  "The dependency-graph plugin builds a package's check and reports its broken graph",
  .serialized,
  .enabled(if: ProcessInfo.processInfo.environment["TINY_DEPENDENCY_PLUGIN_TESTS"] == "1")
)
struct PluginRunTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// Runs the plugin on the fixture, with a scratch directory of its own.
  func plugin(_ arguments: [String]) async throws -> SubprocessResult {
    let fixture = Self.root.appendingPathComponent("Tests/Fixtures/BrokenGraph").path
    let scratch = Self.root.appendingPathComponent(".build/fixtures/BrokenGraph").path
    return try await run(
      URL(fileURLWithPath: "/usr/bin/env"),
      arguments: [
        "swift", "package", "--package-path", fixture, "--scratch-path", scratch,
        "dependency-graph", "--product", "BrokenGraphCheck",
      ] + arguments
    )
  }

  @Test func aBrokenGraphFailsWithEachFindingOnALine() async throws {
    let result = try await plugin([])
    #expect(result.status != 0)
    let lines = result.standardError.split(separator: "\n").map(String.init)
    #expect(lines.contains("error: 3 problems found:"))
    #expect(lines.contains("BrokenGraphCheck exited with status 1 (findings)"))
    #expect(
      lines.contains(
        "cycle | AccountKey | AccountKey -> SessionKey -> AccountKey | fix: Read one of these lazily, or move what both need into a key of its own."
      )
    )
    #expect(
      lines.contains(
        "missing testValue | AnalyticsKey | AnalyticsKey | fix: Declare `static var testValue` on AnalyticsKey."
      )
    )
    #expect(
      lines.contains(
        "unset input | ServerURLKey | ServerURLKey | fix: Set it in `configure`, or declare a testValue on ServerURLKey."
      )
    )
    #expect(result.standardOutput.contains("Unset inputs: ServerURLKey\n"))
  }

  @Test func theFormatsAndUsageErrorsPassThrough() async throws {
    let json = try await plugin(["--format", "json"])
    // Findings go to standard error: the JSON on standard output parses.
    #expect(json.standardOutput.hasPrefix("{\n  \"schemaVersion\": 1,\n"))
    #expect(json.standardOutput.hasSuffix("}\n"))
    #expect(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) is [String: Any])
    #expect(json.standardOutput.contains("{\"from\": \"SessionKey\", \"to\": \"AccountKey\"}"))
    let usage = try await plugin(["--context", "staging"])
    #expect(usage.status != 0)
    #expect(usage.standardError.contains("BrokenGraphCheck exited with status 2 (usage error)"))
    #expect(usage.standardError.contains("error: unknown context 'staging'"))
  }
}
