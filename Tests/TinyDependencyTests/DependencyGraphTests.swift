import Testing

@testable import TinyDependency
@testable import TinyDependencyGraph

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
