internal import TinyDependency
internal import TinyDependencyGraph

extension DependencyCheck {
  /// Each edge of the graph whose source outlives its target, a scoped key (a shared value
  /// reading a session's), with the path from a listed key to it.
  static func captiveDependencies(
    _ keys: [any DependencyKey.Type],
    in graph: DependencyGraph
  ) -> [DependencyFinding] {
    let starts = keys.compactMap { graph.node(for: $0) }
    return graph.edges.filter(\.isCaptive).map { edge in
      let lead = starts.lazy.compactMap { path(in: graph, from: $0, to: edge.from) }.first
      let names = (lead ?? [edge.from]).map(\.name) + [edge.to.name]
      let scope = edge.to.lifetime.scopeChain?.first ?? "?"
      let fix =
        "Declare \(edge.from.name) `.scoped(\(scope).self)`, or read \(edge.to.name) where it is used."
      return DependencyFinding(
        key: edge.from.name,
        kind: .captiveDependency,
        path: names,
        message: "(\(edge.from.lifetime)) reads \(edge.to.name) (\(edge.to.lifetime)) while it "
          + "is built: " + names.joined(separator: " -> ") + ". It outlives every instance of "
          + "that scope and would keep the first one's value. " + fix,
        fix: fix
      )
    }
  }
}
