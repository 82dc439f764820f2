import Testing
import TinyDependency
import TinyDependencyCollections
import TinyDependencyGraph

@Suite("A graph shows a collection reading its members, the modules, and no marker of its own")
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
    #expect(
      text.contains("SearchPluginKey (shared, member of PluginsKey from SearchModule)"),
      "\(text)"
    )
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

  @Test func aTraceNamesTheModulesInEveryRendering() {
    let graph = DependencyGraph.trace([PluginsKey.self]) { $0.register(AppModule.self) }
    #expect(graph.modules == ["AppModule", "SearchModule", "ShareModule"])
    #expect(graph.text.contains("Modules: AppModule, SearchModule, ShareModule\n"), "\(graph.text)")
    #expect(
      graph.text.contains("SearchPluginKey (shared, member of PluginsKey from SearchModule)"),
      "\(graph.text)"
    )
    #expect(
      graph.mermaid.contains("SharePluginKey (shared, member of PluginsKey from ShareModule)")
    )
    #expect(
      graph.dot.contains("label=\"test context; modules: AppModule, SearchModule, ShareModule\"")
    )
    #expect(graph.dot.contains("SearchPluginKey\\nshared, member of PluginsKey from SearchModule"))
  }

  @Test func aContainersGraphNamesItsModulesAndAMemberContributedDirectlyNamesNone() {
    var values = DependencyValues(context: .test)
    values.register(SearchModule.self)
    values.contribute(SharePluginKey.self)
    _ = values.plugins
    let graph = values.graph
    #expect(graph.modules == ["SearchModule"])
    #expect(graph.text.contains("SharePluginKey (shared, member of PluginsKey)\n"), "\(graph.text)")
    #expect(graph.text.contains("SearchPluginKey (shared, member of PluginsKey from SearchModule)"))
  }

  @Test func aGraphWithoutModulesSaysNothingOfThem() {
    let graph = DependencyGraph.trace([PluginsKey.self]) { $0.contribute(SearchPluginKey.self) }
    #expect(graph.modules.isEmpty)
    #expect(!graph.text.contains("Modules"))
    #expect(graph.dot.contains("label=\"test context\";"))
  }
}
