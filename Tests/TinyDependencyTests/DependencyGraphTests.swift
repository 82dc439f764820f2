import Dispatch
import Testing

@testable import TinyDependency

@Suite("Dependency graphs from real resolutions")
struct DependencyGraphTests {
  // MARK: - Tracing

  @Test func buildsRecordWhatTheyReadDirectly() {
    let values = DependencyValues(context: .test)
    _ = values[AppKey.self]
    let edges = values.graph.edges.map(\.description)
    #expect(
      edges == [
        "APIKey -> ClockKey", "AppKey -> APIKey", "AppKey -> StoreKey", "StoreKey -> ClockKey",
      ]
    )
    #expect(values.graph.nodes.map(\.name) == ["APIKey", "AppKey", "ClockKey", "StoreKey"])
    #expect(values.graph.cycles.isEmpty)
  }

  @Test func overriddenKeysAreLeavesOfTheGraph() {
    var values = DependencyValues(context: .test)
    values[ClockKey.self] = "fixed clock"
    _ = values[StoreKey.self]
    #expect(values.graph.edges.map(\.description) == ["StoreKey -> ClockKey"])
    #expect(values[StoreKey.self] == "store(fixed clock)")
  }

  @Test func traceGivesTheSameGraphAsReadingInAContainer() {
    let values = DependencyValues(context: .test)
    _ = values[AppKey.self]
    #expect(DependencyGraph.trace([AppKey.self]) == values.graph)
  }

  @Test func aValueThatReadNothingIsANodeWithoutEdges() {
    let values = DependencyValues(context: .test)
    _ = values[First.SameNameKey.self]
    _ = values[ClockKey.self]  // transient: nothing kept, so not part of what was built
    #expect(values.graph.edges.isEmpty)
    #expect(values.graph.nodes.map(\.name) == ["SameNameKey"])
  }

  @Test func aTestValueWrappingTheLiveOneIsNoSelfEdge() {
    let graph = DependencyGraph.trace([WrappingKey.self])
    #expect(graph.edges.isEmpty)
    #expect(graph.cycles.isEmpty)
  }

  @Test func aScopeThatSharesItsParentsValueShowsWhatThatValueRead() {
    let parent = DependencyValues(context: .test)
    _ = parent[AppKey.self]
    var child = parent
    child[First.SameNameKey.self] = 7
    _ = child[AppKey.self]
    #expect(child.graph.edges == parent.graph.edges)
  }

  @Test func traceShowsWhatTransientValuesRead() {
    let graph = DependencyGraph.trace([TransientUserKey.self])
    #expect(
      graph.edges.map(\.description) == [
        "StampKey -> ClockKey", "TransientUserKey -> StampKey",
      ]
    )
  }

  @Test func traceShowsWhoReadAnUnsetInput() {
    let graph = DependencyGraph.trace([GatewayKey.self])
    #expect(graph.missingInputs.map(\.name) == ["BaseURLKey"])
    #expect(
      graph.edges.map(\.description) == ["GatewayKey -> ServerKey", "ServerKey -> BaseURLKey"]
    )
  }

  // MARK: - Renderings

  @Test func plainTextRendering() {
    let graph = DependencyGraph.trace([AppKey.self])
    #expect(
      graph.text == """
        Dependency graph, test context: 4 keys, 4 edges
        APIKey (shared)
          -> ClockKey
        AppKey (shared)
          -> APIKey
          -> StoreKey
        ClockKey (transient)
        StoreKey (shared)
          -> ClockKey
        Cycles: none

        """
    )
    #expect(graph.description == graph.text)
  }

  @Test func mermaidRendering() {
    #expect(
      DependencyGraph.trace([AppKey.self]).mermaid == """
        graph TD
          n0["APIKey"]
          n1["AppKey"]
          n2["ClockKey"]
          n3["StoreKey"]
          n0 --> n2
          n1 --> n0
          n1 --> n3
          n3 --> n2

        """
    )
  }

  @Test func dotRendering() {
    #expect(
      DependencyGraph.trace([AppKey.self], context: .preview).dot == """
        digraph Dependencies {
          label="preview context";
          rankdir=TB;
          "APIKey";
          "AppKey";
          "ClockKey";
          "StoreKey";
          "APIKey" -> "ClockKey";
          "AppKey" -> "APIKey";
          "AppKey" -> "StoreKey";
          "StoreKey" -> "ClockKey";
        }

        """
    )
  }

  @Test func keysWithTheSameShortNameAreQualified() {
    let graph = DependencyGraph.trace([First.SameNameKey.self, Second.SameNameKey.self])
    let names = graph.nodes.map(\.name)
    #expect(names.count == 2)
    #expect(
      names.allSatisfy {
        $0.hasSuffix(".SameNameKey") && $0.contains("First") != $0.contains("Second")
      }
    )
  }

  @Test func genericNamesAreEscapedInMermaid() {
    let graph = DependencyGraph.trace([GenericKey<Int>.self])
    #expect(graph.mermaid.contains(#"n0["GenericKey#lt;Int#gt;"]"#))
  }

  // MARK: - Cycles

  @Test func traceRecordsACycleInsteadOfStopping() {
    let graph = DependencyGraph.trace([FeedKey.self, AppKey.self])
    #expect(graph.cycles.map { $0.map(\.name) } == [["ClientKey", "SessionKey", "FeedKey"]])
    #expect(graph.text.contains("Cycles:\n  ClientKey -> SessionKey -> FeedKey -> ClientKey\n"))
    #expect(graph.edges.contains { $0.description == "AppKey -> StoreKey" })
  }

  @Test func aCycleMetInConfigureIsRecordedInsteadOfHanging() {
    final class Result: @unchecked Sendable { var graph: DependencyGraph? }
    let result = Result()
    let finished = finishes(within: 120) {
      result.graph = DependencyGraph.trace([AppKey.self]) { _ = $0[FeedKey.self] }
    }
    #expect(finished, "trace returns when configure reads a key that is part of a cycle")
    #expect(
      result.graph?.cycles.map { $0.map(\.name) } == [["ClientKey", "SessionKey", "FeedKey"]]
    )
    #expect(result.graph?.nodes.contains { $0.name == "AppKey" } == true)
  }

  @Test func anUnsetInputMetInConfigureIsRecordedInsteadOfHanging() {
    final class Result: @unchecked Sendable { var graph: DependencyGraph? }
    let result = Result()
    let finished = finishes(within: 120) {
      result.graph = DependencyGraph.trace([AppKey.self]) { _ = $0[ServerKey.self] }
    }
    #expect(finished, "trace returns when configure reads a key that reads an unset input")
    #expect(result.graph?.missingInputs.map(\.name) == ["BaseURLKey"])
  }

  @Test func everyElementaryCycleOnceFromItsSmallestNode() {
    let a = KeyType(CycleA.self)
    let b = KeyType(CycleB.self)
    let c = KeyType(CycleC.self)
    let graph = DependencyGraph(
      context: .test,
      builds: [(a, [b]), (b, [a, c]), (c, [c, a])]
    )
    #expect(
      graph.cycles.map { $0.map(\.name) } == [
        ["CycleA", "CycleB"], ["CycleA", "CycleB", "CycleC"], ["CycleC"],
      ]
    )
  }

  @Test func aLadderWithoutCyclesIsCheckedInLinearTime() {
    // Each key reads the next two, names in edge order: a walk of every simple path would
    // take longer than the age of the universe at 90 keys; the deadline is generous.
    let keys = numberedKeys(90).map(KeyType.init)
    let builds = keys.indices.map { index in
      (key: keys[index], reads: Array(keys[(index + 1)..<min(index + 3, keys.count)]))
    }
    let graph = DependencyGraph(context: .test, builds: builds)
    #expect(finishes(within: 60) { _ = graph.text })
    #expect(graph.cycles.isEmpty)
    #expect(!graph.hasMoreCycles)
    #expect(graph.text.hasSuffix("Cycles: none\n"))
  }

  @Test func aRingOfTenThousandKeysIsOneCycleOnASecondaryThreadsStack() {
    let keys = numberedKeys(10_000).map(KeyType.init)
    let builds = keys.indices.map { (key: keys[$0], reads: [keys[($0 + 1) % keys.count]]) }
    let graph = DependencyGraph(context: .test, builds: builds)
    /// `@unchecked Sendable`: written by the thread before it signals, read after the wait.
    final class Found: @unchecked Sendable { var cycles: [[DependencyGraph.Node]] = [] }
    let found = Found()
    let done = DispatchSemaphore(value: 0)
    SystemInterface.runOnNewThread {
      found.cycles = graph.cycles
      done.signal()
    }
    #expect(done.wait(timeout: .now() + 60) == .success)
    let cycles = found.cycles
    #expect(cycles.count == 1)
    #expect(cycles.first?.count == 10_000)
    #expect(cycles.first?.first == graph.nodes.first)
  }

  @Test func aGraphWithMoreCyclesThanTheLimitListsTheLimitAndSaysSo() {
    // Seven keys that all read each other: 2,365 elementary cycles.
    let keys = numberedKeys(7).map(KeyType.init)
    let builds = keys.map { key in (key: key, reads: keys.filter { $0 != key }) }
    let graph = DependencyGraph(context: .test, builds: builds)
    #expect(graph.cycles.count == DependencyGraph.cycleLimit)
    #expect(graph.hasMoreCycles)
    #expect(graph.cycles.allSatisfy { $0.first == graph.nodes.first })
    #expect(
      graph.text.hasSuffix(
        "  … more cycles not listed: only the first \(DependencyGraph.cycleLimit) are shown\n"
      )
    )
  }

  @Test(arguments: 0..<40)
  func cyclesAreEveryElementaryCycleOfASmallRandomGraph(seed: Int) {
    var generator = SplitMix(seed: UInt64(seed))
    let keys = numberedKeys(6).map(KeyType.init)
    let builds = keys.map { key in
      (key: key, reads: keys.filter { _ in generator.next() % 3 == 0 })
    }
    let graph = DependencyGraph(context: .test, builds: builds)
    #expect(graph.cycles == Self.everySimpleCycle(of: graph))
  }

  /// The elementary cycles found by walking every simple path: slow, obviously right.
  static func everySimpleCycle(of graph: DependencyGraph) -> [[DependencyGraph.Node]] {
    var found: [[DependencyGraph.Node]] = []
    for (index, start) in graph.nodes.enumerated() {
      let allowed = Set(graph.nodes[index...])
      func visit(_ path: [DependencyGraph.Node]) {
        for next in graph.dependencies(of: path.last!) where allowed.contains(next) {
          if next == start {
            found.append(path)
          } else if !path.contains(next) {
            visit(path + [next])
          }
        }
      }
      visit([start])
    }
    return found.sorted { $0.lexicographicallyPrecedes($1) }
  }

  // MARK: - Names

  @Test func privateKeysOfOneNameInTwoFilesGetStableDistinctNames() {
    let graph = DependencyGraph.trace([SettingsKey.self, settingsKeyOfSupportFiles])
    let names = graph.nodes.map(\.name)
    #expect(names.count == 2)
    #expect(Set(names).count == 2)
    #expect(
      Set(names) == ["TinyDependencyTests.SettingsKey #1", "TinyDependencyTests.SettingsKey #2"]
    )
    // Numbered in the order of the mangled names, which depend on the files, not the run.
    let first = graph.nodes[0].key.type
    let second = graph.nodes[1].key.type
    #expect(_mangledTypeName(first)! < _mangledTypeName(second)!)
    #expect(!graph.text.contains("unknown context"))
    #expect(!graph.dot.contains("$"))
  }

  @Test func aPrivateKeyAloneKeepsItsShortName() {
    #expect(DependencyGraph.trace([SettingsKey.self]).nodes.map(\.name) == ["SettingsKey"])
  }

  // MARK: - Inputs

  @Test func traceRecordsAnUnsetInput() {
    let graph = DependencyGraph.trace([ServerKey.self])
    #expect(graph.missingInputs.map(\.name) == ["BaseURLKey"])
    #expect(graph.text.hasSuffix("Unset inputs: BaseURLKey\n"))
    let configured = DependencyGraph.trace([ServerKey.self]) {
      $0[BaseURLKey.self] = "https://example.com"
    }
    #expect(configured.missingInputs.isEmpty)
    #expect(configured.edges.map(\.description) == ["ServerKey -> BaseURLKey"])
  }
}

// MARK: - Fixtures

enum ClockKey: DependencyKey {
  static var defaultValue: String { "clock" }
  static var lifetime: DependencyLifetime { .transient }
}

enum StoreKey: DependencyKey {
  static var defaultValue: String { "store(\(DependencyValues.current[ClockKey.self]))" }
}

enum APIKey: DependencyKey {
  static var defaultValue: String { "api(\(DependencyValues.current[ClockKey.self]))" }
}

enum AppKey: DependencyKey {
  static var defaultValue: String {
    let values = DependencyValues.current
    return "app(\(values[APIKey.self]), \(values[StoreKey.self]))"
  }
}

/// A transient key that reads a transient key of its own.
enum StampKey: DependencyKey {
  static var defaultValue: String { "stamp(\(DependencyValues.current[ClockKey.self]))" }
  static var lifetime: DependencyLifetime { .transient }
}

enum TransientUserKey: DependencyKey {
  static var defaultValue: String { "user(\(DependencyValues.current[StampKey.self]))" }
}

enum GatewayKey: DependencyKey {
  static var defaultValue: String { "gateway(\(DependencyValues.current[ServerKey.self]))" }
}

enum First {
  enum SameNameKey: DependencyKey { static let defaultValue = 1 }
}

enum Second {
  enum SameNameKey: DependencyKey { static let defaultValue = 2 }
}

/// A private key named like one in Support/PrivateKeys.swift.
private enum SettingsKey: DependencyKey {
  static let defaultValue = "settings of the graph tests"
}

/// A small, seeded random number generator, so failures can be replayed.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}

enum CycleA: DependencyKey { static let defaultValue = 0 }
enum CycleB: DependencyKey { static let defaultValue = 0 }
enum CycleC: DependencyKey { static let defaultValue = 0 }

enum BaseURLKey: DependencyInputKey {
  typealias Value = String
}

enum ServerKey: DependencyKey {
  static var defaultValue: String { "server at \(DependencyValues.current[BaseURLKey.self])" }
}
