import Foundation
import TestSubprocess
import Testing

/// The example's graph check, `TinyDependencyExampleGraph`, run as a process: what the
/// dependency-graph plugin runs.
@Suite("The example's graph check runs as a process and exits with the check's status")
struct DependencyCheckExecutableTests {
  /// The package's root directory.
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static let committedGraph = root.appendingPathComponent(
    "Sources/TinyDependencyExampleGraph/dependency-graph.json"
  )

  func check(_ arguments: [String]) async throws -> SubprocessResult {
    try await run(builtProduct("TinyDependencyExampleGraph"), arguments: arguments)
  }

  @Test func printsTheGraphAndExitsZero() async throws {
    let result = try await check([])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(
      result.standardOutput.hasPrefix(
        "Dependency graph, test context: 9 keys, 8 edges\n"
          + "Modules: AppModule, PlainTextExportModule, MarkdownExportModule\n"
      )
    )
    #expect(result.standardOutput.contains("TodoStoreKey (shared)\n  -> IDGeneratorKey\n"))
  }

  @Test func theCommittedGraphIsUpToDate() async throws {
    let result = try await check(["--check", Self.committedGraph.path])
    #expect(result.status == 0, "\(result.standardOutput)")
    #expect(result.standardOutput.hasSuffix("matches the traced graph: 9 keys, 8 edges\n"))
  }

  @Test func aUsageErrorExitsTwo() async throws {
    let result = try await check(["--format", "svg"])
    #expect(result.status == 2)
    #expect(result.standardError.hasPrefix("error: unknown format 'svg'"))
  }

  @Test func aGraphThatMovedExitsThreeWithTheEdgeDiff() async throws {
    let committed = try String(contentsOf: Self.committedGraph, encoding: .utf8)
    let moved = committed.replacingOccurrences(
      of: "{\"from\": \"TodoStoreKey\", \"to\": \"LoggerKey\"}",
      with: "{\"from\": \"LoggerKey\", \"to\": \"WallClockKey\"}"
    )
    try #require(moved != committed)
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("moved-graph-\(UUID().uuidString).json")
    try moved.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }

    let result = try await check(["--check", file.path])
    #expect(result.status == 3)
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.contains("+ edge TodoStoreKey -> LoggerKey"))
    #expect(lines.contains("- edge LoggerKey -> WallClockKey"))
  }
}
