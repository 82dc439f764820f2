import Foundation
import Testing
import TinyDependency
import TinyDependencyGraph
import TinyDependencyValidation

/// The command-line check as a function: its output, its errors and its exit status.
@Suite("The command-line check prints the graph and exits with a status CI can act on")
@MainActor
struct DependencyCheckTests {
  /// A path in a directory of its own, removed by the caller.
  func temporaryFile(_ name: String) throws -> (directory: URL, path: String) {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("DependencyCheckTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return (directory, directory.appendingPathComponent(name).path)
  }

  // MARK: - Exit status and findings

  @Test func aCleanSetExitsZeroAndPrintsTheGraph() {
    let outcome = DependencyCheck.run([], keys: cleanKeys)
    #expect(outcome.exitCode == 0)
    #expect(outcome.errors == "")
    #expect(outcome.output.hasPrefix("Dependency graph, test context: 3 keys, 2 edges\n"))
    #expect(outcome.output.contains("ClientKey (shared)\n  -> EndpointKey\n"))
  }

  @Test func eachKeyShowsTheContextsWithValuesOfTheirOwn() {
    let outcome = DependencyCheck.run([], keys: cleanKeys + [AnalyticsKey.self])
    #expect(outcome.output.contains("  EndpointKey: preview, test\n"))
    #expect(outcome.output.contains("  ClientKey: test\n"))
    #expect(outcome.output.contains("  FeedKey: preview, test\n"))
    #expect(outcome.output.contains("  AnalyticsKey: none\n"))
  }

  @Test func aMissingTestValueExitsOneWithKindKeyPathAndFix() {
    let outcome = DependencyCheck.run([], keys: [AnalyticsKey.self, ReportsKey.self])
    #expect(outcome.exitCode == 1)
    let lines = outcome.errors.split(separator: "\n").map(String.init)
    #expect(lines.first == "2 problems found:")
    #expect(
      lines.contains(
        "missing testValue | AnalyticsKey | AnalyticsKey | fix: Declare `static var testValue` on AnalyticsKey."
      )
    )
    #expect(
      lines.contains(
        "live value in tests | ReportsKey | ReportsKey -> AnalyticsKey | fix: Declare a testValue on AnalyticsKey, or override it for tests."
      )
    )
  }

  @Test func aCycleExitsOneWithItsPath() {
    let outcome = DependencyCheck.run([], keys: [CycleAKey.self, CycleBKey.self])
    #expect(outcome.exitCode == 1)
    #expect(
      outcome.errors.contains("cycle | CycleAKey | CycleAKey -> CycleBKey -> CycleAKey | fix: ")
    )
  }

  @Test func anUnsetInputExitsOne() {
    let outcome = DependencyCheck.run([], keys: [InvoiceKey.self])
    #expect(outcome.exitCode == 1)
    #expect(outcome.errors.contains("unset input | TenantKey | TenantKey | fix: Set it in "))
  }

  @Test func configureSetsInputsForEveryTrace() {
    let outcome = DependencyCheck.run([], keys: [InvoiceKey.self]) { $0[TenantKey.self] = "acme" }
    #expect(outcome.exitCode == 0, "\(outcome.errors)")
  }

  @Test func theTestAndPreviewContextsBuildNoLiveValue() {
    let before = LiveBuilds.total
    for context in ["test", "preview"] {
      let outcome = DependencyCheck.run(
        ["--context", context],
        keys: cleanKeys + [AnalyticsKey.self, ReportsKey.self]
      )
      #expect(outcome.exitCode == 1)
    }
    #expect(LiveBuilds.total == before)
  }

  @Test func thePreviewContextAlsoReportsMissingPreviewValues() {
    let outcome = DependencyCheck.run(["--context", "preview"], keys: cleanKeys)
    #expect(outcome.exitCode == 1)
    #expect(outcome.output.hasPrefix("Dependency graph, preview context: "))
    #expect(outcome.errors.contains("missing previewValue | ClientKey | ClientKey | fix: "))
    #expect(!outcome.errors.contains("EndpointKey"))
  }

  @Test func theDefaultContextTracesLiveValues() {
    let outcome = DependencyCheck.run(["--context", "default"], keys: [FeedKey.self])
    #expect(outcome.exitCode == 0, "\(outcome.errors)")
    #expect(outcome.output.hasPrefix("Dependency graph, default context: 4 keys, 3 edges\n"))
    #expect(outcome.output.contains("ClientKey (shared)\n  -> AnalyticsKey\n  -> EndpointKey\n"))
  }

  // MARK: - Usage

  @Test(arguments: [
    (["--frobnicate"], "unknown argument '--frobnicate'"),
    (["--format", "svg"], "unknown format 'svg': use text, mermaid, dot or json"),
    (["--context", "staging"], "unknown context 'staging': use test, preview or default"),
    (["--format"], "--format needs a value"),
    (["--output", "a.json", "--check", "b.json"], "--output and --check can't be used together"),
  ])
  func aUsageErrorExitsTwoAndSaysWhatIsWrong(arguments: [String], message: String) {
    let outcome = DependencyCheck.run(arguments, keys: cleanKeys)
    #expect(outcome.exitCode == 2)
    #expect(outcome.output == "")
    #expect(outcome.errors.hasPrefix("error: \(message)\n"))
    #expect(outcome.errors.contains("USAGE:"))
  }

  @Test func helpPrintsTheUsageAndExitsZero() {
    let outcome = DependencyCheck.run(["--help"], keys: cleanKeys)
    #expect(outcome.exitCode == 0)
    #expect(outcome.output == DependencyCheck.usage)
    for flag in ["--format", "--context", "--output", "--check", "--runtime-graph", "--help"] {
      #expect(outcome.output.contains(flag))
    }
  }

  @Test func noKeysIsAUsageError() {
    let outcome = DependencyCheck.run([], keys: [])
    #expect(outcome.exitCode == 2)
    #expect(outcome.errors == "error: no keys to check\n")
  }

  // MARK: - Formats

  @Test func mermaidAndDotAreTheGraphsRenderings() {
    let mermaid = DependencyCheck.run(["--format", "mermaid"], keys: cleanKeys)
    #expect(mermaid.output.hasPrefix("graph TD\n"))
    #expect(mermaid.output.contains("[\"ClientKey (shared)\"]"))
    let dot = DependencyCheck.run(["--format", "dot"], keys: cleanKeys)
    #expect(dot.output.hasPrefix("digraph Dependencies {\n"))
    #expect(dot.output.contains("\"ClientKey\" -> \"EndpointKey\";"))
  }

  @Test func jsonFollowsSchemaVersionOneAndIsTheSameEveryRun() throws {
    let keys = cleanKeys + [AnalyticsKey.self, CycleAKey.self]
    let first = DependencyCheck.run(["--format", "json"], keys: keys)
    let second = DependencyCheck.run(["--format", "json"], keys: keys.reversed())
    #expect(first.output == second.output)
    let lines = first.output.split(separator: "\n").map(String.init)
    #expect(lines[0] == "{")
    #expect(lines[1] == "  \"schemaVersion\": 1,")
    #expect(lines[2] == "  \"context\": \"test\",")
    #expect(
      lines.contains(
        "    {\"key\": \"EndpointKey\", \"valueType\": \"Endpoint\", \"lifetime\": \"shared\", \"ownValues\": [\"preview\", \"test\"]},"
      )
    )
    #expect(lines.contains("    {\"from\": \"ClientKey\", \"to\": \"EndpointKey\"},"))
    #expect(
      lines.contains {
        $0.hasPrefix(
          "    {\"kind\": \"cycle\", \"key\": \"CycleAKey\", \"path\": [\"CycleAKey\", \"CycleBKey\", \"CycleAKey\"], \"fix\": "
        )
      }
    )
    let parsed = try JSONSerialization.jsonObject(with: Data(first.output.utf8)) as? [String: Any]
    let nodes = try #require(parsed?["nodes"] as? [[String: Any]])
    let names = nodes.compactMap { $0["key"] as? String }
    #expect(names.count == nodes.count)
    #expect(names == names.sorted())
    #expect((parsed?["findings"] as? [Any])?.count == 2)
  }

  @Test func privateKeysHaveTheSameNameInEveryRun() {
    let json = DependencyCheck.run(["--format", "json"], keys: [HiddenKey.self]).output
    #expect(
      json.contains("{\"key\": \"HiddenKey\", \"valueType\": \"Int\", \"lifetime\": \"shared\"")
    )
    #expect(!json.contains("unknown context"))
  }

  // MARK: - Files

  @Test func outputWritesTheFileAndCheckFindsItUpToDate() throws {
    let (directory, path) = try temporaryFile("dependency-graph.json")
    defer { try? FileManager.default.removeItem(at: directory) }
    let written = DependencyCheck.run(["--format", "json", "--output", path], keys: cleanKeys)
    #expect(written.exitCode == 0)
    #expect(written.output == "wrote \(path): 3 keys, 2 edges\n")
    let json = DependencyCheck.run(["--format", "json"], keys: cleanKeys).output
    #expect(try String(contentsOfFile: path, encoding: .utf8) == json)

    let checked = DependencyCheck.run(["--check", path], keys: cleanKeys)
    #expect(checked.exitCode == 0)
    #expect(checked.output == "\(path) matches the traced graph: 3 keys, 2 edges\n")
  }

  @Test func checkExitsThreeWithTheEdgesAddedAndRemoved() throws {
    let (directory, path) = try temporaryFile("dependency-graph.json")
    defer { try? FileManager.default.removeItem(at: directory) }
    // The committed graph had FeedKey read EndpointKey directly, and no ClientKey.
    _ = DependencyCheck.run(["--format", "json", "--output", path], keys: [FeedKey.self])
    var committed = try String(contentsOfFile: path, encoding: .utf8)
    committed = committed.replacingOccurrences(
      of: "{\"from\": \"FeedKey\", \"to\": \"ClientKey\"}",
      with: "{\"from\": \"FeedKey\", \"to\": \"EndpointKey\"}"
    )
    try committed.write(toFile: path, atomically: true, encoding: .utf8)

    let checked = DependencyCheck.run(["--check", path], keys: [FeedKey.self])
    #expect(checked.exitCode == 3)
    let lines = checked.output.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("\(path) differs from the traced graph") == true)
    #expect(lines.contains("+ edge FeedKey -> ClientKey"))
    #expect(lines.contains("- edge FeedKey -> EndpointKey"))
    #expect(!lines.contains { $0.hasPrefix("+ edge ClientKey") })
  }

  @Test func checkNamesKeysAddedRemovedAndChanged() throws {
    let (directory, path) = try temporaryFile("dependency-graph.json")
    defer { try? FileManager.default.removeItem(at: directory) }
    _ = DependencyCheck.run(
      ["--format", "json", "--output", path],
      keys: [ClientKey.self, AnalyticsKey.self]
    )
    let checked = DependencyCheck.run(["--check", path], keys: [FeedKey.self])
    #expect(checked.exitCode == 3)
    #expect(
      checked.output.contains(
        "+ key FeedKey (value Array<String>; shared; own values: preview, test)"
      )
    )
    #expect(checked.output.contains("- key AnalyticsKey (value String; shared; own values: )"))
    #expect(checked.output.contains("- finding missing testValue | AnalyticsKey | AnalyticsKey"))
  }

  @Test func findingsWinOverADifference() throws {
    let (directory, path) = try temporaryFile("dependency-graph.json")
    defer { try? FileManager.default.removeItem(at: directory) }
    _ = DependencyCheck.run(["--format", "json", "--output", path], keys: cleanKeys)
    let checked = DependencyCheck.run(["--check", path], keys: [AnalyticsKey.self])
    #expect(checked.exitCode == 1)
    #expect(checked.output.contains("+ key AnalyticsKey"))
    #expect(checked.errors.contains("missing testValue | AnalyticsKey"))
  }

  @Test func anUnreadableOrForeignFileIsAUsageError() throws {
    let (directory, path) = try temporaryFile("graph.json")
    defer { try? FileManager.default.removeItem(at: directory) }
    let missing = DependencyCheck.run(["--check", path], keys: cleanKeys)
    #expect(missing.exitCode == 2)
    #expect(missing.errors == "error: could not read \(path)\n")
    try "{\"nodes\": []}".write(toFile: path, atomically: true, encoding: .utf8)
    let foreign = DependencyCheck.run(["--check", path], keys: cleanKeys)
    #expect(foreign.exitCode == 2)
    #expect(foreign.errors.contains("is not a dependency graph in JSON"))
  }

  // MARK: - Run time

  @Test func aRuntimeGraphShowsTheEdgesOnlyALiveRunRecorded() throws {
    let (directory, path) = try temporaryFile("runtime.json")
    defer { try? FileManager.default.removeItem(at: directory) }
    // A live run: live clients read the analytics, which the trace in the test context can't see.
    let live = DependencyValues(context: .default)
    _ = live[FeedKey.self]
    let recorded = DependencyCheck.json(of: live.graph)
    try recorded.write(toFile: path, atomically: true, encoding: .utf8)

    let text = DependencyCheck.run(["--runtime-graph", path], keys: cleanKeys)
    #expect(text.exitCode == 0)
    #expect(text.output.hasSuffix("Edges seen only at run time:\n  ClientKey -> AnalyticsKey\n"))
    let json = DependencyCheck.run(["--runtime-graph", path, "--format", "json"], keys: cleanKeys)
    #expect(
      json.output.hasSuffix(
        "  \"runtimeOnlyEdges\": [\n    {\"from\": \"ClientKey\", \"to\": \"AnalyticsKey\"}\n  ]\n}\n"
      )
    )
  }
}

private enum HiddenKey: DependencyKey {
  static let defaultValue = 1
  static let testValue = 2
}
