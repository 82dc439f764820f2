public import TinyDependency
import TinyDependencyCollections

/// The keys whose values were built, and the keys each build read: a dependency graph.
///
/// The graph comes from real resolutions, not from source: while a key's value is built, every
/// key it reads (through ``/TinyDependency/DependencyValues/current``, `@Dependency` or the
/// container) becomes an edge `built -> read`. Get the graph of what a container has built so far with
/// ``TinyDependency/DependencyValues/graph``, or trace a set of keys in a fresh container with
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
    ///
    /// The name is the same in every run: a private type's qualified name leaves out the
    /// `(unknown context at $…)` part, whose address changes from run to run, and private
    /// types that would still share a name get a number (`Module.SettingsKey #1`), ordered by
    /// the types' mangled names, which depend on the files that declare them.
    public let name: String
    /// How the key provides its value.
    public let lifetime: DependencyLifetime
    let key: KeyType
    /// The key type.
    package var keyType: any DependencyKey.Type { key.type }
    /// The module that contributed the key, a collection's member, where the graph was made.
    package var module: String? = nil

    /// The key type's name.
    public var description: String { name }

    /// Whether the key's value is prepared, not built on a read (an async key of
    /// TinyDependencyLifecycle), as a trace found when it read the key.
    package var isAsyncKey: Bool { PreparedOnlyKeys.contains(key.id) }

    /// Whether the key is a factory's whose product a trace made: what the product read is
    /// the key's edges, though the product belongs to whoever called the factory.
    package var isFactoryKey: Bool { !FactoryReads.reads(of: key).isEmpty }

    /// Whether the key is a main-actor key (stored under its wrapper).
    package var isMainActorKey: Bool {
      (key.type as? any WrapperKey.Type)?.wrappedKey is any MainActorDependencyKey.Type
    }

    /// The key's part in a collection, for the renderings: `collection`, `map`, or
    /// `member of` its collection; nil for a key that is none.
    package var collectionPart: String? {
      switch CollectionRole(of: key.type) {
      case .collection(let isMap, _)?: return isMap ? "map" : "collection"
      case .member(let owner)?: return "member of " + readableTypeName(owner, qualified: false)
      case nil: return nil
      }
    }

    /// The lifetime, the part in a collection if any, and the module that contributed it:
    /// `shared, member of PluginsKey from SearchModule`.
    var label: String {
      guard let part = collectionPart else { return "\(lifetime)" }
      return "\(lifetime), \(part)" + (module.map { " from \($0)" } ?? "")
    }

    /// The name of the key's value type, the same in every run (as ``name`` is).
    package var valueTypeName: String {
      func value<Key: DependencyKey>(_: Key.Type) -> Any.Type { Key.Value.self }
      return readableTypeName(value(key.type), qualified: false)
    }

    /// Orders nodes by name.
    public static func < (lhs: Node, rhs: Node) -> Bool {
      lhs.name != rhs.name ? lhs.name < rhs.name : _typeName(lhs.key.type) < _typeName(rhs.key.type)
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

    /// Whether `from` lives longer than `to`, a scoped key, and so would hold it captive (a
    /// shared value reading a session's, a session's reading a checkout's).
    public var isCaptive: Bool { from.lifetime.holdsCaptive(to.lifetime) }

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
  /// Inputs (``/TinyDependency/DependencyInputKey``) that a traced resolution read while they were unset.
  public let missingInputs: [Node]
  /// The modules (`DependencyModule`) registered on the container the graph comes from, in the
  /// order they were registered.
  public let modules: [String]

  init(
    context: DependencyContext,
    builds: [(key: KeyType, reads: [KeyType])],
    cyclePaths: [[KeyType]] = [],
    missingInputs missing: [KeyType] = [],
    configured: DependencyValues? = nil
  ) {
    var keys: [KeyType] = []
    var seen: Set<KeyType> = []
    func add(_ key: KeyType) { if seen.insert(key).inserted { keys.append(key) } }
    var pairs: [(KeyType, KeyType)] = []
    // A collection's list of members is the collection's own business: its edges to its
    // members say the same.
    for build in builds where !build.key.isMembersMarker {
      add(build.key)
      for read in build.reads where !read.isMembersMarker {
        add(read)
        pairs.append((build.key, read))
      }
    }
    for path in cyclePaths {
      path.forEach(add)
      pairs += zip(path, path.dropFirst()).map { ($0, $1) }
    }
    missing.forEach(add)

    // Which module contributed each member of the collections shown, where the graph was made.
    var modules: [KeyType: String] = [:]
    for key in keys {
      for member in configured?.contributions(to: key.type) ?? [] {
        modules[KeyType(member.key)] = member.module
      }
    }
    var byKey: [KeyType: Node] = [:]
    for (key, name) in Self.stableNames(of: keys) {
      byKey[key] = Node(name: name, lifetime: key.type.lifetime, key: key, module: modules[key])
    }
    self.context = context
    self.modules = configured?.registeredModuleNames ?? []
    self.nodes = byKey.values.sorted()
    self.edges = Set(pairs.map { Edge(from: byKey[$0.0]!, to: byKey[$0.1]!) }).sorted()
    self.missingInputs = Set(missing.map { byKey[$0]! }).sorted()
  }

  /// A graph of the given builds and what each read, for code that makes graphs directly
  /// (measurements, checks of the renderings).
  package init(
    context: DependencyContext,
    reads: [(key: any DependencyKey.Type, reads: [any DependencyKey.Type])]
  ) {
    self.init(
      context: context,
      builds: reads.map { (KeyType($0.key), $0.reads.map(KeyType.init)) }
    )
  }

  /// Names for `keys` that read well and stay the same from run to run: short where no other
  /// key shares the name, else qualified without the address of a private type's context,
  /// else numbered in the order of the types' mangled names.
  static func stableNames(of keys: [KeyType]) -> [KeyType: String] {
    var names: [KeyType: String] = [:]
    let byShortName = Dictionary(grouping: keys) {
      readableTypeName($0.type, qualified: false)
    }
    for (short, group) in byShortName {
      guard group.count > 1 else {
        names[group[0]] = short
        continue
      }
      let byQualifiedName = Dictionary(grouping: group) {
        readableTypeName($0.type, qualified: true)
      }
      for (qualified, same) in byQualifiedName {
        guard same.count > 1 else {
          names[same[0]] = qualified
          continue
        }
        // Private types of the same name in different files: their mangled names differ by a
        // discriminator made from the file's name, the same in every run.
        let ordered = same.map { (key: $0, mangled: mangledName($0.type)) }
          .sorted { $0.mangled < $1.mangled }
        for (index, entry) in ordered.enumerated() {
          names[entry.key] = "\(qualified) #\(index + 1)"
        }
      }
    }
    return names
  }

  /// The keys that building `node`'s value read.
  ///
  /// - Parameter node: A node of this graph.
  /// - Returns: Its dependencies, sorted by name.
  public func dependencies(of node: Node) -> [Node] {
    // Edges are sorted by their source: find this node's run of them.
    var low = 0
    var high = edges.count
    while low < high {
      let middle = (low + high) / 2
      if edges[middle].from < node { low = middle + 1 } else { high = middle }
    }
    var result: [Node] = []
    while low < edges.count, edges[low].from == node {
      result.append(edges[low].to)
      low += 1
    }
    return result
  }

  /// The most cycles ``cycles`` lists; a graph with more lists this many and
  /// ``hasMoreCycles`` is true.
  public static let cycleLimit = 100

  /// Every elementary cycle, each once, starting at its smallest node (by name); the first
  /// node is not repeated at the end.
  ///
  /// Finding them takes time linear in the size of the graph when it has no cycle, and linear
  /// per cycle otherwise: keys are first grouped into strongly connected components, and
  /// cycles are searched only inside components that have one. A graph with more than
  /// ``cycleLimit`` cycles lists the first ``cycleLimit`` found, from the smallest nodes on.
  public var cycles: [[Node]] { cycleSearch().cycles }

  /// Whether the graph has more elementary cycles than ``cycles`` lists (``cycleLimit``).
  public var hasMoreCycles: Bool { cycleSearch().truncated }

  private func cycleSearch() -> (cycles: [[Node]], truncated: Bool) {
    guard !edges.isEmpty else { return ([], false) }
    var position: [Node: Int] = [:]
    position.reserveCapacity(nodes.count)
    for (index, node) in nodes.enumerated() { position[node] = index }
    var successors = [[Int]](repeating: [], count: nodes.count)
    for edge in edges { successors[position[edge.from]!].append(position[edge.to]!) }
    let found = CycleSearch(successors: successors).cycles(limit: Self.cycleLimit)
    let cycles = found.cycles.sorted { $0.lexicographicallyPrecedes($1) }
    return (cycles.map { $0.map { nodes[$0] } }, found.truncated)
  }

  // MARK: - Renderings

  /// A plain-text rendering: each key with the keys it read, then cycles and unset inputs. A
  /// graph whose container registered modules names them on the second line
  /// (`Modules: AppModule, SearchModule`), and a collection's member names the module that
  /// contributed it (`member of PluginsKey from SearchModule`).
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
    var lines: [String] = [
      "Dependency graph, \(context) context: \(count(nodes.count, "key")), "
        + count(edges.count, "edge")
    ]
    if !modules.isEmpty { lines.append("Modules: " + modules.joined(separator: ", ")) }
    var next = 0
    for node in nodes {
      lines.append("\(node.name) (\(node.label))")
      while next < edges.count, edges[next].from == node {
        let captive = edges[next].isCaptive ? " (captive: \(edges[next].to.lifetime))" : ""
        lines.append("  -> \(edges[next].to.name)" + captive)
        next += 1
      }
    }
    let (cycles, truncated) = cycleSearch()
    if cycles.isEmpty {
      lines.append("Cycles: none")
    } else {
      lines.append("Cycles:")
      for cycle in cycles {
        let names: [String] = (cycle + [cycle[0]]).map(\.name)
        lines.append("  " + names.joined(separator: " -> "))
      }
      if truncated {
        lines.append("  … more cycles not listed: only the first \(Self.cycleLimit) are shown")
      }
    }
    if !missingInputs.isEmpty {
      lines.append("Unset inputs: " + missingInputs.map(\.name).joined(separator: ", "))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A Mermaid flowchart (`graph TD`), for Markdown that renders Mermaid: each key with its
  /// lifetime, scoped keys in a `subgraph` per scope (a parent scope's enclosing its
  /// children's), captive edges dotted.
  public var mermaid: String {
    let ids = Dictionary(uniqueKeysWithValues: nodes.enumerated().map { ($1, "n\($0)") })
    func escaped(_ text: String) -> String {
      text.replacingAll("\"", with: "#quot;").replacingAll("<", with: "#lt;")
        .replacingAll(">", with: "#gt;")
    }
    var lines = ["graph TD"]
    lines += scopeTree.render(
      nodes: { "\(ids[$0]!)[\"\(escaped($0.name)) (\(escaped($0.label)))\"]" },
      open: { "subgraph scope_\($0)[\"\($0)\"]" },
      close: "end"
    )
    lines += edges.map {
      "  \(ids[$0.from]!) \($0.isCaptive ? "-. captive .->" : "-->") \(ids[$0.to]!)"
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A Graphviz DOT digraph, for `dot -Tsvg`: each key labelled with its lifetime, scoped keys
  /// in a `cluster` per scope (a parent scope's enclosing its children's), captive edges red;
  /// the graph's label names the context and the modules.
  public var dot: String {
    func escaped(_ text: String) -> String {
      text.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"")
    }
    func quoted(_ text: String) -> String { "\"" + escaped(text) + "\"" }
    let named = modules.isEmpty ? "" : "; modules: " + modules.joined(separator: ", ")
    var lines = [
      "digraph Dependencies {", "  label=\(quoted("\(context) context" + named));", "  rankdir=TB;",
    ]
    lines += scopeTree.render(
      nodes: { "\(quoted($0.name)) [label=\"\(escaped($0.name))\\n\(escaped($0.label))\"];" },
      open: { "subgraph \(quoted("cluster_\($0)")) { label=\(quoted($0));" },
      close: "}"
    )
    lines += edges.map {
      "  \(quoted($0.from.name)) -> \(quoted($0.to.name))"
        + ($0.isCaptive ? " [color=red, label=\"captive\"];" : ";")
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The nodes grouped by scope: those of no scope at the top, each scope's inside its
  /// parent's.
  private var scopeTree: ScopeTree {
    var tree = ScopeTree()
    for node in nodes { tree.insert(node, at: (node.lifetime.scopeChain ?? []).reversed()) }
    return tree
  }

  /// The plain-text rendering.
  public var description: String { text }

  private func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
  }

  /// Whether two graphs have the same context, nodes, edges, missing inputs and modules.
  public static func == (lhs: DependencyGraph, rhs: DependencyGraph) -> Bool {
    (lhs.context, lhs.nodes, lhs.edges, lhs.missingInputs, lhs.modules)
      == (rhs.context, rhs.nodes, rhs.edges, rhs.missingInputs, rhs.modules)
  }

  /// Hashes the graph's context, nodes and edges.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(context)
    hasher.combine(nodes)
    hasher.combine(edges)
  }
}

/// The type's mangled name; empty before macOS 11 and its peers, whose runtime lacks it.
private func mangledName(_ type: Any.Type) -> String {
  guard #available(macOS 11, iOS 14, tvOS 14, watchOS 7, *) else { return "" }
  return _mangledTypeName(type) ?? ""
}

extension String {
  /// Replaces every occurrence of `target`, scanning by hand: the string-processing
  /// `contains(_:)` and `split(separator:)` of a string need macOS 13 and its peers.
  func replacingAll(_ target: String, with replacement: String) -> String {
    guard !target.isEmpty else { return self }
    var result = ""
    var index = startIndex
    while index < endIndex {
      if self[index...].hasPrefix(target) {
        result += replacement
        index = self.index(index, offsetBy: target.count)
      } else {
        result.append(self[index])
        index = self.index(after: index)
      }
    }
    return result
  }
}

/// Nodes grouped by the scopes they are scoped to, nested as the scopes are.
private struct ScopeTree {
  var nodes: [DependencyGraph.Node] = []
  var children: [String: ScopeTree] = [:]

  mutating func insert(_ node: DependencyGraph.Node, at path: some Collection<String>) {
    guard let first = path.first else { return nodes.append(node) }
    children[first, default: ScopeTree()].insert(node, at: path.dropFirst())
  }

  /// The lines of this group, indented by `depth`: its nodes, then each scope inside it.
  func render(
    nodes line: (DependencyGraph.Node) -> String,
    open: (String) -> String,
    close: String,
    depth: Int = 1
  ) -> [String] {
    let indent = String(repeating: "  ", count: depth)
    var lines = nodes.map { indent + line($0) }
    for name in children.keys.sorted() {
      lines.append(indent + open(name))
      lines += children[name]!.render(nodes: line, open: open, close: close, depth: depth + 1)
      lines.append(indent + close)
    }
    return lines
  }
}

extension KeyType {
  /// Whether the key is a collection's list of members or a container's list of modules, which
  /// the graph leaves out.
  var isMembersMarker: Bool { type is any InternalMarker.Type }
}
