import Testing
import TinyDependency
import TinyDependencyCollections
import TinyDependencyGraph

@Suite("A graph shows a collection reading its members, and no marker of its own")
struct CollectionGraphTests {
  @Test func aContainersGraphListsMembersUnderTheirCollection() {
    var values = DependencyValues(context: .test)
    values.register(AppModule.self)
    _ = values.plugins
    let text = values.graph.text
    #expect(!text.contains("CollectionMembers"), "\(text)")
    #expect(
      text.contains("PluginsKey (shared, collection)\n  -> SearchPluginKey\n  -> SharePluginKey"),
      "\(text)"
    )
    #expect(text.contains("SearchPluginKey (shared, member of PluginsKey)"), "\(text)")
  }

  @Test func aTraceHasAnEdgeFromTheCollectionToEachMember() {
    let graph = DependencyGraph.trace([HandlersKey.self]) { $0.register(AppModule.self) }
    #expect(
      graph.edges.map(\.description) == [
        "HandlersKey -> OpenHandlerKey", "HandlersKey -> SearchHandlerKey",
      ]
    )
    #expect(graph.mermaid.contains("HandlersKey (shared, map)"))
    #expect(graph.dot.contains("SearchHandlerKey\\nshared, member of HandlersKey"))
  }

  @Test func aMemberReadingItsCollectionIsACycleInATrace() {
    let graph = DependencyGraph.trace([CyclicCollectionKey.self]) {
      $0.contribute(SelfReadingMemberKey.self)
    }
    #expect(
      graph.cycles.map { $0.map(\.name) } == [["CyclicCollectionKey", "SelfReadingMemberKey"]]
    )
  }
}
