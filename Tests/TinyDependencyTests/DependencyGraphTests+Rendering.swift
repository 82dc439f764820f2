import Testing

@testable import TinyDependency
@testable import TinyDependencyGraph

@Suite("Dependency graphs render as text, Mermaid and DOT, with one name per key")
struct DependencyGraphRenderingTests {
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
          n0["APIKey (shared)"]
          n1["AppKey (shared)"]
          n2["ClockKey (transient)"]
          n3["StoreKey (shared)"]
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
          "APIKey" [label="APIKey\\nshared"];
          "AppKey" [label="AppKey\\nshared"];
          "ClockKey" [label="ClockKey\\ntransient"];
          "StoreKey" [label="StoreKey\\nshared"];
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
    #expect(graph.mermaid.contains(#"n0["GenericKey#lt;Int#gt; (shared)"]"#))
  }

  // MARK: - Names

  @available(macOS 11, iOS 14, tvOS 14, watchOS 7, *)
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
}

// MARK: - Keys

/// A private key named like one in Support/PrivateKeys.swift.
private enum SettingsKey: DependencyKey {
  static let defaultValue = "settings of the graph tests"
}
