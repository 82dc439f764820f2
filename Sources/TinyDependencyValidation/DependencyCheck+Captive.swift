internal import TinyDependency
internal import TinyDependencyGraph

extension DependencyCheck {
  /// Each value that outlives a scoped key it reads (a shared value reading a session's), with
  /// the path from a listed key to it. A read through transient keys counts as the reader's
  /// own: a transient value is handed to whatever read it, which keeps it. A factory's product
  /// is its caller's, so a factory key holds nothing captive.
  static func captiveDependencies(
    _ keys: [any DependencyKey.Type],
    in graph: DependencyGraph
  ) -> [DependencyFinding] {
    let starts = keys.compactMap { graph.node(for: $0) }
    return captiveReads(in: graph).map { captive in
      let (holder, through, target) = captive
      let lead = starts.lazy.compactMap { path(in: graph, from: $0, to: holder) }.first
      let names = ((lead ?? [holder]) + through + [target]).map(\.name)
      let scope = target.lifetime.scopeChain?.first ?? "?"
      let via = through.map { "\($0.name) (\($0.lifetime))" }.joined(separator: ", ")
      let fix =
        "Declare \(holder.name) `.scoped(\(scope).self)`, or read \(target.name) where it is used."
      return DependencyFinding(
        key: holder.name,
        kind: .captiveDependency,
        path: names,
        message: "(\(holder.lifetime)) reads \(target.name) (\(target.lifetime))"
          + (through.isEmpty ? "" : " through \(via)") + " while it is built: "
          + names.joined(separator: " -> ") + ". It outlives every instance of that scope and "
          + "would keep the first one's value. " + fix,
        fix: fix
      )
    }
  }

  /// Each key that holds a scoped key captive, the transient keys it reads it through (none for
  /// a captive edge), and the scoped key, in the graph's edge order.
  private static func captiveReads(
    in graph: DependencyGraph
  ) -> [(DependencyGraph.Node, [DependencyGraph.Node], DependencyGraph.Node)] {
    var found: [(DependencyGraph.Node, [DependencyGraph.Node], DependencyGraph.Node)] = []
    for edge in graph.edges where edge.to.lifetime.scopeChain != nil {
      // Back from the scoped key's reader through transient readers, each node once.
      var pending = [(edge.from, [DependencyGraph.Node]())]
      var seen: Set<DependencyGraph.Node> = [edge.from]
      while !pending.isEmpty {
        let (reader, through) = pending.removeFirst()
        // A factory's product belongs to its caller, not to the factory's key: the read is
        // no captive through it (the caller's own build is checked when it calls at run time).
        if reader.isFactoryKey { continue }
        if reader.lifetime.holdsCaptive(edge.to.lifetime) {
          found.append((reader, through, edge.to))
        } else if reader.lifetime == .transient {
          for outer in graph.edges where outer.to == reader && seen.insert(outer.from).inserted {
            pending.append((outer.from, [reader] + through))
          }
        }
      }
    }
    return found
  }
}
