import Foundation
import TestSubprocess
import Testing
import TinyDependency
import TinyDependencyGraph

@testable import TinyDependencyExample

@Suite("The example's to-do store with test values")
struct TodoStoreTests {
  @Test func addsTodosWithTestIdentifiersAndTime() async {
    let store = DependencyValues(context: .test).todoStore
    let first = await store.add("Buy milk")
    let second = await store.add("Write the README")
    #expect(first.id == "todo-1")
    #expect(second.id == "todo-2")
    #expect(first.created.description == "2026-01-01T00:00:00Z")
    #expect(await store.open.map(\.title) == ["Buy milk", "Write the README"])
  }

  @Test func logsWhatItDoes() async throws {
    let values = DependencyValues(context: .test)
    let store = values.todoStore
    let todo = await store.add("Water the plants")
    #expect(await store.complete(todo.id))
    #expect(await !store.complete("todo-99"))
    let logger = try #require(values.logger as? RecordingLogger)
    #expect(
      logger.messages == [
        "added \"Water the plants\" as todo-1",
        "completed \"Water the plants\"",
        "no to-do todo-99 to complete",
      ]
    )
  }

  @Test func eachContainerCountsFromOne() async {
    for _ in 0..<3 {
      let todo = await DependencyValues(context: .test).todoStore.add("again")
      #expect(todo.id == "todo-1")
    }
  }

  @Test func aScopeCanPinTheClock() async {
    let pinned = Timestamp(secondsSince1970: 1_800_000_000)
    var values = DependencyValues(context: .test)
    values.clock = .fixed(pinned)
    #expect(await values.todoStore.add("Later").created == pinned)
  }

  @Test func reportReadsTheStoreOfTheScopeItRunsIn() async {
    let values = DependencyValues(context: .test)
    await values.todoStore.add("Read the report")
    let lines = await withDependencies(values) { await TodoReport().lines() }
    #expect(lines == ["  [ ] Read the report (todo-1, added 2026-01-01T00:00:00Z)", "1 open"])
  }

  @Test func graphOfTheApp() {
    let graph = DependencyGraph.trace([TodoStoreKey.self], context: .test)
    #expect(
      graph.text == """
        Dependency graph, test context: 4 keys, 3 edges
        IDGeneratorKey (shared)
        LoggerKey (shared)
        TodoStoreKey (shared)
          -> IDGeneratorKey
          -> LoggerKey
          -> WallClockKey
        WallClockKey (shared)
        Cycles: none

        """
    )
  }

  @Test func examplesMarkdownShowsThisGraph() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let examples = try String(
      contentsOf: root.appendingPathComponent("Examples.md"),
      encoding: .utf8
    )
    let graph = DependencyGraph.trace([TodoStoreKey.self], context: .test)
    #expect(examples.contains("```text\n" + graph.text + "```"))
  }

  @Test func liveExampleRunsAndPrintsItsWorkAndGraph() async throws {
    let result = try await run(
      builtProduct("TinyDependencyExample"),
      environment: ["TINY_DEPENDENCY_CONTEXT": "live"]
    )
    #expect(result.status == 0)
    #expect(result.standardOutput.contains("(context: default)"))
    #expect(result.standardOutput.contains("[x] Buy milk"))
    #expect(result.standardOutput.contains("1 open"))
    #expect(result.standardOutput.contains("LoggerKey (shared)\n  -> WallClockKey\n"))
    // The plugins the entry point's modules contributed, in the order they were registered.
    #expect(result.standardOutput.contains("Export as text:\nx Buy milk\n- Write the README\n"))
    #expect(result.standardOutput.contains("- [x] Buy milk\n- [ ] Write the README\n"))
    #expect(
      result.standardOutput.contains(
        "Modules: AppModule, PlainTextExportModule, MarkdownExportModule\n"
      )
    )
  }

  @Test func exampleRendersItsGraphAsMermaid() async throws {
    let result = try await run(
      builtProduct("TinyDependencyExample"),
      arguments: ["--mermaid"],
      environment: ["TINY_DEPENDENCY_CONTEXT": "test"]
    )
    #expect(
      result.standardOutput.hasSuffix(
        """
        graph TD
          n0["IDGeneratorKey (shared)"]
          n1["LoggerKey (shared)"]
          n2["MarkdownExporterKey (shared, member of TodoExportersKey from MarkdownExportModule)"]
          n3["PlainTextExporterKey (shared, member of TodoExportersKey from PlainTextExportModule)"]
          n4["TodoExportersKey (shared, collection)"]
          n5["TodoStoreKey (shared)"]
          n6["WallClockKey (shared)"]
          n2 --> n1
          n4 --> n2
          n4 --> n3
          n5 --> n0
          n5 --> n1
          n5 --> n6

        """
      )
    )
  }
}
