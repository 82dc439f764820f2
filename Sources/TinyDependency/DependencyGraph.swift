/// The keys whose values were built, and the keys each build read: a dependency graph.
///
/// The graph comes from real resolutions, not from source: while a key's value is built, every
/// key it reads (through ``DependencyValues/current``, `@Dependency` or the container itself)
/// becomes an edge `built -> read`. Get the graph of what a container has built so far with
/// ``DependencyValues/graph``, or trace a set of keys in a fresh container with
/// ``trace(_:context:configure:)``, which also reports cycles and unset inputs instead of
/// stopping.
///
/// ```swift
/// let graph = DependencyGraph.trace([TodoStoreKey.self], context: .test)
/// print(graph.mermaid)   // paste into a Markdown file that renders Mermaid
/// #expect(graph.cycles.isEmpty)
/// ```
///
/// Nodes, edges and cycles are sorted by key name, so every rendering is stable and can be
/// compared with a snapshot or reviewed as a diff.
public struct DependencyGraph: Sendable, Hashable, CustomStringConvertible {
  /// A key in the graph.
  public struct Node: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The key type's name: short (`LoggerKey`), qualified only where two keys share it.
    public let name: String
    /// How the key provides its value.
    public let lifetime: DependencyLifetime
    let key: KeyType

    /// The key type's name.
    public var description: String { name }

    /// Whether the key is an ``AsyncDependencyKey``, whose value is prepared, not built on a read.
    package var isAsyncKey: Bool { key.type is any AsyncDependencyKey.Type }

    /// Orders nodes by name.
    public static func < (lhs: Node, rhs: Node) -> Bool {
      (lhs.name, _typeName(lhs.key.type)) < (rhs.name, _typeName(rhs.key.type))
    }

    /// Whether two nodes are the same key.
    public static func == (lhs: Node, rhs: Node) -> Bool { lhs.key == rhs.key }

    /// Hashes the key's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }
  }

  /// A dependency: building `from`'s value read `to`.
  public struct Edge: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The key whose value was being built.
    public let from: Node
    /// The key it read.
    public let to: Node

    /// The edge as `From -> To`.
    public var description: String { "\(from) -> \(to)" }

    /// Orders edges by their source, then their target.
    public static func < (lhs: Edge, rhs: Edge) -> Bool {
      lhs.from == rhs.from ? lhs.to < rhs.to : lhs.from < rhs.from
    }
  }

  /// The context the values were built for.
  public let context: DependencyContext
  /// Every key that was built or read, sorted by name.
  public let nodes: [Node]
  /// Every dependency, sorted.
  public let edges: [Edge]
  /// Inputs (``DependencyInputKey``) that a traced resolution read while they were unset.
  public let missingInputs: [Node]

  init(
    context: DependencyContext,
    builds: [(key: KeyType, reads: [KeyType])],
    cyclePaths: [[KeyType]] = [],
    missingInputs missing: [KeyType] = []
  ) {
    var keys: [KeyType] = []
    var seen: Set<KeyType> = []
    func add(_ key: KeyType) { if seen.insert(key).inserted { keys.append(key) } }
    var pairs: [(KeyType, KeyType)] = []
    for build in builds {
      add(build.key)
      for read in build.reads {
        add(read)
        pairs.append((build.key, read))
      }
    }
    for path in cyclePaths {
      path.forEach(add)
      pairs += zip(path, path.dropFirst()).map { ($0, $1) }
    }
    missing.forEach(add)

    // Short names, qualified where two keys would share one.
    let short = Dictionary(grouping: keys) { _typeName($0.type, qualified: false) }
    var byKey: [KeyType: Node] = [:]
    for (name, group) in short {
      for key in group {
        let shown = group.count == 1 ? name : _typeName(key.type, qualified: true)
        byKey[key] = Node(name: shown, lifetime: key.type.lifetime, key: key)
      }
    }
    self.context = context
    self.nodes = byKey.values.sorted()
    self.edges = Set(pairs.map { Edge(from: byKey[$0.0]!, to: byKey[$0.1]!) }).sorted()
    self.missingInputs = Set(missing.map { byKey[$0]! }).sorted()
  }

  /// The keys that building `node`'s value read.
  ///
  /// - Parameter node: A node of this graph.
  /// - Returns: Its dependencies, sorted by name.
  public func dependencies(of node: Node) -> [Node] {
    edges.filter { $0.from == node }.map(\.to)
  }

  /// Every elementary cycle, each once, starting at its smallest node (by name); the first
  /// node is not repeated at the end.
  public var cycles: [[Node]] {
    var successors: [Node: [Node]] = [:]
    for edge in edges { successors[edge.from, default: []].append(edge.to) }
    var found: [[Node]] = []
    for (index, start) in nodes.enumerated() {
      let allowed = Set(nodes[index...])
      var path = [start]
      var onPath: Set<Node> = [start]
      func visit(_ node: Node) {
        for next in successors[node, default: []] where allowed.contains(next) {
          if next == start {
            found.append(path)
          } else if onPath.insert(next).inserted {
            path.append(next)
            visit(next)
            path.removeLast()
            onPath.remove(next)
          }
        }
      }
      visit(start)
    }
    return found.sorted { $0.lexicographicallyPrecedes($1) }
  }

  // MARK: - Renderings

  /// A plain-text rendering: each key with the keys it read, then cycles and unset inputs.
  ///
  /// ```text
  /// Dependency graph, test context: 3 keys, 2 edges
  /// ClientKey (shared)
  ///   -> SessionKey
  /// FeedKey (shared)
  ///   -> ClientKey
  /// SessionKey (shared)
  /// Cycles: none
  /// ```
  public var text: String {
    var lines = [
      "Dependency graph, \(context) context: \(count(nodes.count, "key")), "
        + count(edges.count, "edge")
    ]
    for node in nodes {
      lines.append("\(node.name) (\(node.lifetime))")
      lines += dependencies(of: node).map { "  -> \($0.name)" }
    }
    let cycles = self.cycles
    if cycles.isEmpty {
      lines.append("Cycles: none")
    } else {
      lines.append("Cycles:")
      lines += cycles.map { "  " + ($0 + [$0[0]]).map(\.name).joined(separator: " -> ") }
    }
    if !missingInputs.isEmpty {
      lines.append("Unset inputs: " + missingInputs.map(\.name).joined(separator: ", "))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A Mermaid flowchart (`graph TD`), for Markdown that renders Mermaid.
  public var mermaid: String {
    let ids = Dictionary(uniqueKeysWithValues: nodes.enumerated().map { ($1, "n\($0)") })
    var lines = ["graph TD"]
    for node in nodes {
      let label = node.name.replacingAll("\"", with: "#quot;")
        .replacingAll("<", with: "#lt;").replacingAll(">", with: "#gt;")
      lines.append("  \(ids[node]!)[\"\(label)\"]")
    }
    lines += edges.map { "  \(ids[$0.from]!) --> \(ids[$0.to]!)" }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A Graphviz DOT digraph, for `dot -Tsvg`.
  public var dot: String {
    func quoted(_ node: Node) -> String {
      "\"" + node.name.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\""
    }
    var lines = ["digraph Dependencies {", "  label=\"\(context) context\";", "  rankdir=TB;"]
    lines += nodes.map { "  \(quoted($0));" }
    lines += edges.map { "  \(quoted($0.from)) -> \(quoted($0.to));" }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The plain-text rendering.
  public var description: String { text }

  private func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
  }

  /// Whether two graphs have the same context, nodes, edges and missing inputs.
  public static func == (lhs: DependencyGraph, rhs: DependencyGraph) -> Bool {
    (lhs.context, lhs.nodes, lhs.edges, lhs.missingInputs)
      == (rhs.context, rhs.nodes, rhs.edges, rhs.missingInputs)
  }

  /// Hashes the graph's context, nodes and edges.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(context)
    hasher.combine(nodes)
    hasher.combine(edges)
  }
}

// MARK: - Obtaining a graph

extension DependencyValues {
  /// The graph of every value this container has built so far (or shares with the scopes it
  /// derives from), with the keys each build read.
  public var graph: DependencyGraph {
    DependencyGraph(
      context: context,
      builds: storage.builtValuesWithTheirReads.map { ($0.key, $0.reads) }
    )
  }
}

extension DependencyGraph {
  /// Resolves each key in a fresh container and returns the graph of everything that built.
  ///
  /// Unlike a normal read, a cycle or an unset input does not stop the process: the resolution
  /// that meets one stops there, the problem shows in ``cycles`` or ``missingInputs``, and
  /// tracing goes on with the next key in a new container. A resolution still running after a
  /// minute (blocked on a lock, say) is left behind, and tracing goes on without it. Each key resolves on a thread of its
  /// own; a thread that met a problem stays parked, with what it was building, for the rest of
  /// the process, so trace from tests and checks rather than from a running app.
  ///
  /// - Parameters:
  ///   - keys: The keys to resolve.
  ///   - context: The context to build values for.
  ///   - configure: Sets values (inputs, say) on each fresh container before it resolves.
  /// - Returns: The union of the keys' graphs.
  public static func trace(
    _ keys: [any DependencyKey.Type],
    context: DependencyContext = .test,
    configure: (inout DependencyValues) -> Void = { _ in }
  ) -> DependencyGraph {
    traceDetails(keys, context: context, configure: configure).graph
  }

  /// What a trace found: the graph, and the keys whose value for the context was the
  /// protocol's fallback to their default value.
  package struct TraceDetails: Sendable {
    package let graph: DependencyGraph
    package let fellBack: [Node]
    /// Keys whose resolution had not finished after ``traceTimeout`` seconds.
    package let stalled: [Node]
  }

  /// How long a trace waits for one key's resolution before it reports it stalled and goes on.
  package static let traceTimeout = 60.0

  /// Traces like ``trace(_:context:configure:)`` and also reports the keys that fell back to
  /// their default value (the live one, in the test context).
  package static func traceDetails(
    _ keys: [any DependencyKey.Type],
    context: DependencyContext,
    configure: (inout DependencyValues) -> Void
  ) -> TraceDetails {
    var builds: [(key: KeyType, reads: [KeyType])] = []
    var cyclePaths: [[KeyType]] = []
    var missing: [KeyType] = []
    var fellBack: [KeyType] = []
    var stalled: [KeyType] = []
    for key in keys {
      let recorder = TraceRecorder()
      var values = DependencyValues(
        storage: DependencyStorage(context: context, recorder: recorder)
      )
      configure(&values)
      let frozen = values
      let traced = KeyType(key)
      SystemInterface.runOnNewThread {
        frozen.resolveForTrace(traced.type)
        recorder.finish()
      }
      let stopped = recorder.waitUntilDone(timeout: traceTimeout)
      if stopped.stalled { stalled.append(traced) }
      let recorded = recorder.recordedBuilds
      builds += recorded.builds.map { (KeyType($0.key), $0.reads.map(KeyType.init)) }
      // A value the container already had (an override) built nothing: still a node.
      if !recorded.builds.contains(where: { ObjectIdentifier($0.key) == traced.id }) {
        builds.append((traced, []))
      }
      fellBack += recorded.fallbacks.map(KeyType.init)
      cyclePaths += stopped.cycles.map { $0.map(KeyType.init) }
      missing += stopped.missingInputs.map(KeyType.init)
    }
    let graph = DependencyGraph(
      context: context,
      builds: builds,
      cyclePaths: cyclePaths,
      missingInputs: missing
    )
    let fellBackIDs = Set(fellBack.map(\.id))
    let stalledIDs = Set(stalled.map(\.id))
    return TraceDetails(
      graph: graph,
      fellBack: graph.nodes.filter { fellBackIDs.contains($0.key.id) },
      stalled: graph.nodes.filter { stalledIDs.contains($0.key.id) }
    )
  }

  /// The node of `key`, if the graph has it.
  package func node(for key: any DependencyKey.Type) -> Node? {
    nodes.first { $0.key.id == ObjectIdentifier(key) }
  }
}

extension DependencyValues {
  /// Reads `key`, so that its value and everything it reads are built.
  fileprivate func resolveForTrace(_ key: any DependencyKey.Type) {
    func read<Key: DependencyKey>(_ key: Key.Type) { _ = self[key] }
    read(key)
  }
}

extension String {
  fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
    guard contains(target) else { return self }
    return split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
