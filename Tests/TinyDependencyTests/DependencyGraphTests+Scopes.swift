import Testing
import TinyDependency

@testable import TinyDependencyGraph

/// Issue 35, item 6: the renderings show each key's lifetime, group scoped keys by scope
/// (parents enclosing children) and mark captive edges.
@Suite("Graphs group scoped keys by scope and mark captive edges")
struct DependencyGraphScopeTests {
  let graph = DependencyGraph(
    context: .test,
    reads: [
      (PaymentKey.self, [CartKey.self]),
      (CaptiveAnalyticsKey.self, [CartKey.self]),
      (BasketKey.self, []),
    ]
  )

  @Test func textNamesLifetimesAndCaptiveEdges() {
    #expect(
      graph.text == """
        Dependency graph, test context: 4 keys, 2 edges
        BasketKey (scoped(Checkout))
        CaptiveAnalyticsKey (shared)
          -> CartKey (captive: scoped(Session))
        CartKey (scoped(Session))
        PaymentKey (scoped(Checkout))
          -> CartKey
        Cycles: none

        """
    )
    #expect(
      graph.edges.filter(\.isCaptive).map(\.description) == ["CaptiveAnalyticsKey -> CartKey"]
    )
  }

  @Test func mermaidNestsTheCheckoutSubgraphInTheSessions() {
    #expect(
      graph.mermaid == """
        graph TD
          n1["CaptiveAnalyticsKey (shared)"]
          subgraph scope_Session["Session"]
            n2["CartKey (scoped(Session))"]
            subgraph scope_Checkout["Checkout"]
              n0["BasketKey (scoped(Checkout))"]
              n3["PaymentKey (scoped(Checkout))"]
            end
          end
          n1 -. captive .-> n2
          n3 --> n2

        """
    )
  }

  @Test func dotNestsTheCheckoutClusterInTheSessions() {
    #expect(
      graph.dot == """
        digraph Dependencies {
          label="test context";
          rankdir=TB;
          "CaptiveAnalyticsKey" [label="CaptiveAnalyticsKey\\nshared"];
          subgraph "cluster_Session" { label="Session";
            "CartKey" [label="CartKey\\nscoped(Session)"];
            subgraph "cluster_Checkout" { label="Checkout";
              "BasketKey" [label="BasketKey\\nscoped(Checkout)"];
              "PaymentKey" [label="PaymentKey\\nscoped(Checkout)"];
            }
          }
          "CaptiveAnalyticsKey" -> "CartKey" [color=red, label="captive"];
          "PaymentKey" -> "CartKey";
        }

        """
    )
  }

  @Test func aTraceOfASessionRecordsTheCaptiveEdgeWithoutStopping() {
    let traced = DependencyGraph.trace([CaptiveAnalyticsKey.self], context: .test)
    #expect(traced.edges.contains { $0.isCaptive && $0.to.name == "CartKey" })
  }
}
