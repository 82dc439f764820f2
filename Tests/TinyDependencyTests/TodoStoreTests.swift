import Testing
import TinyDependency

@testable import TinyDependencyExample

@Suite("The example's to-do store with test values")
struct TodoStoreTests {
  /// Runs `body` in a fresh test container, so counters and loggers are this test's own.
  func inFreshContainer<R>(_ body: (DependencyValues) throws -> R) rethrows -> R {
    let values = DependencyValues(context: .test)
    return try withDependencies(values) { try body(values) }
  }

  @Test func addsTodosWithTestIdentifiersAndTime() {
    inFreshContainer { values in
      let store = TodoStore()
      let first = store.add("Buy milk")
      let second = store.add("Write the README")
      #expect(first.id == "todo-1")
      #expect(second.id == "todo-2")
      #expect(first.created.description == "2026-01-01T00:00:00Z")
      #expect(store.open.map(\.title) == ["Buy milk", "Write the README"])
    }
  }

  @Test func logsWhatItDoes() throws {
    try inFreshContainer { values in
      let store = TodoStore()
      let todo = store.add("Water the plants")
      #expect(store.complete(todo.id))
      #expect(!store.complete("todo-99"))
      let logger = try #require(values.logger as? RecordingLogger)
      #expect(
        logger.messages == [
          "added \"Water the plants\" as todo-1",
          "completed \"Water the plants\"",
          "no to-do todo-99 to complete",
        ]
      )
    }
  }

  @Test func eachContainerCountsFromOne() {
    for _ in 0..<3 {
      inFreshContainer { _ in
        #expect(TodoStore().add("again").id == "todo-1")
      }
    }
  }

  @Test func aScopeCanPinTheClock() {
    let pinned = Timestamp(secondsSince1970: 1_800_000_000)
    inFreshContainer { _ in
      withDependencies {
        $0.clock = .fixed(pinned)
      } operation: {
        let store = TodoStore()
        #expect(store.add("Later").created == pinned)
      }
    }
  }

  @Test func liveExampleRunsAndPrintsItsWork() throws {
    let result = try run(
      builtProduct("TinyDependencyExample"),
      environment: ["TINY_DEPENDENCY_CONTEXT": "live"]
    )
    #expect(result.status == 0)
    #expect(result.standardOutput.contains("(context: default)"))
    #expect(result.standardOutput.contains("[x] Buy milk"))
    #expect(result.standardOutput.contains("1 open"))
  }
}
