internal import TinyDependency
internal import TinyDependencyGraph

/// The graph as the command-line check renders it, and the JSON file it writes and compares.
///
/// JSON schema, version 1 (the file diffs line by line: one node, edge or finding a line,
/// each list sorted, names the same in every run):
///
/// ```json
/// {
///   "schemaVersion": 1,
///   "context": "test",
///   "modules": ["AppModule", "SearchModule"],
///   "nodes": [
///     {"key": "CartKey", "valueType": "Cart", "lifetime": "shared", "ownValues": ["preview", "test"]},
///     {"key": "SearchPluginKey", "valueType": "Plugin", "lifetime": "shared", "ownValues": ["test"], "collection": "member of PluginsKey", "module": "SearchModule"}
///   ],
///   "edges": [
///     {"from": "CartKey", "to": "APIClientKey"}
///   ],
///   "findings": [
///     {"kind": "cycle", "key": "AKey", "path": ["AKey", "BKey", "AKey"], "fix": "…", "message": "…"}
///   ]
/// }
/// ```
///
/// `ownValues` lists the contexts, of `preview` and `test`, for which the key has a value of its
/// own (elsewhere it gets its `defaultValue`); a context whose trace never reached the key is
/// left out. With `--runtime-graph`, a last list `runtimeOnlyEdges` holds the edges a live run
/// recorded that the trace lacks. A reader ignores members it doesn't know.
///
/// Members added in version 1 since it was first written (an older reader ignores them, and a
/// file without them reads as a graph without collections): `modules`, the modules registered
/// where the graph was traced, present when there are some; a node's `collection` (`collection`,
/// `map` or `member of PluginsKey`) and `module` (the module that contributed a member).
struct GraphDocument {
  static let schemaVersion = 1

  let graph: DependencyGraph
  let findings: [DependencyFinding]
  let ownValues: (DependencyGraph.Node) -> [String]
  let runtimeOnlyEdges: [Parsed.Edge]

  init(
    graph: DependencyGraph,
    findings: [DependencyFinding],
    ownValues: @escaping (DependencyGraph.Node) -> [String],
    runtime: Parsed?
  ) {
    self.graph = graph
    self.findings = findings
    self.ownValues = ownValues
    let traced = Set(graph.edges.map { Parsed.Edge(from: $0.from.name, to: $0.to.name) })
    self.runtimeOnlyEdges = runtime.map { $0.edges.filter { !traced.contains($0) } } ?? []
  }

  func render(_ format: Options.Format) -> String {
    switch format {
    case .text: text
    case .mermaid: graph.mermaid
    case .dot: graph.dot
    case .json: json
    }
  }

  /// The graph's text, then each key's contexts with values of their own, then the edges only
  /// a live run recorded.
  var text: String {
    var lines = ["Values of their own (else defaultValue):"]
    for node in graph.nodes {
      let contexts = ownValues(node)
      lines.append(
        "  \(node.name): " + (contexts.isEmpty ? "none" : contexts.joined(separator: ", "))
      )
    }
    if !runtimeOnlyEdges.isEmpty {
      lines.append("Edges seen only at run time:")
      lines += runtimeOnlyEdges.map { "  \($0.from) -> \($0.to)" }
    }
    return graph.text + lines.joined(separator: "\n") + "\n"
  }

  var json: String {
    func string(_ text: String) -> String { JSONValue.quoted(text) }
    func strings(_ texts: [String]) -> String {
      "[" + texts.map(string).joined(separator: ", ") + "]"
    }
    func list(_ name: String, _ items: [String], last: Bool = false) -> String {
      let body =
        items.isEmpty ? "[]" : "[\n" + items.map { "    " + $0 }.joined(separator: ",\n") + "\n  ]"
      return "  \(string(name)): \(body)" + (last ? "" : ",")
    }
    let nodes = graph.nodes.map { node in
      "{\"key\": \(string(node.name)), \"valueType\": \(string(node.valueTypeName)), "
        + "\"lifetime\": \(string("\(node.lifetime)")), \"ownValues\": \(strings(ownValues(node)))"
        + (node.collectionPart.map { ", \"collection\": \(string($0))" } ?? "")
        + (node.module.map { ", \"module\": \(string($0))" } ?? "") + "}"
    }
    let edges = graph.edges.map { edge in
      "{\"from\": \(string(edge.from.name)), \"to\": \(string(edge.to.name))}"
    }
    let findings = self.findings.map { finding in
      "{\"kind\": \(string(finding.kind.rawValue)), \"key\": \(string(finding.key)), "
        + "\"path\": \(strings(finding.path)), \"fix\": \(string(finding.fix)), "
        + "\"message\": \(string(finding.message))}"
    }
    var lines = [
      "{",
      "  \"schemaVersion\": \(Self.schemaVersion),",
      "  \"context\": \(string("\(graph.context)")),",
    ]
    if !graph.modules.isEmpty { lines.append("  \"modules\": \(strings(graph.modules)),") }
    lines += [
      list("nodes", nodes),
      list("edges", edges),
    ]
    if runtimeOnlyEdges.isEmpty {
      lines.append(list("findings", findings, last: true))
    } else {
      lines.append(list("findings", findings))
      let runtime = runtimeOnlyEdges.map {
        "{\"from\": \(string($0.from)), \"to\": \(string($0.to))}"
      }
      lines.append(list("runtimeOnlyEdges", runtime, last: true))
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  // MARK: - Reading and comparing

  /// What a JSON graph file holds, as far as a comparison needs it.
  struct Parsed {
    struct Edge: Hashable, Comparable {
      let from: String
      let to: String
      static func < (lhs: Edge, rhs: Edge) -> Bool { (lhs.from, lhs.to) < (rhs.from, rhs.to) }
    }
    var schemaVersion: Int
    /// Each node's key, with its other members as one line.
    var nodes: [String: String]
    var modules: [String]
    var edges: [Edge]
    var findings: [String]
  }

  struct ReadError: Error { let message: String }

  /// Reads and parses a JSON graph file.
  static func read(_ path: String) -> Result<Parsed, ReadError> {
    guard let text = Files.read(path) else {
      return .failure(ReadError(message: "error: could not read \(path)\n"))
    }
    guard let parsed = parse(text) else {
      return .failure(
        ReadError(message: "error: \(path) is not a dependency graph in JSON (schema version 1)\n")
      )
    }
    return .success(parsed)
  }

  static func parse(_ text: String) -> Parsed? {
    guard case .object(let members)? = JSONValue.parse(text),
      case .number(let version)? = members["schemaVersion"]
    else { return nil }
    func strings(_ value: JSONValue?) -> [String] {
      guard case .array(let items)? = value else { return [] }
      return items.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }
    var parsed = Parsed(
      schemaVersion: Int(version),
      nodes: [:],
      modules: strings(members["modules"]),
      edges: [],
      findings: []
    )
    if case .array(let nodes)? = members["nodes"] {
      for case .object(let node) in nodes {
        guard case .string(let key)? = node["key"] else { continue }
        var details: [String] = []
        if case .string(let type)? = node["valueType"] { details.append("value \(type)") }
        if case .string(let lifetime)? = node["lifetime"] { details.append(lifetime) }
        details.append("own values: " + strings(node["ownValues"]).joined(separator: ", "))
        if case .string(let part)? = node["collection"] { details.append(part) }
        if case .string(let module)? = node["module"] { details.append("from \(module)") }
        parsed.nodes[key] = details.joined(separator: "; ")
      }
    }
    if case .array(let edges)? = members["edges"] {
      for case .object(let edge) in edges {
        guard case .string(let from)? = edge["from"], case .string(let to)? = edge["to"] else {
          continue
        }
        parsed.edges.append(Parsed.Edge(from: from, to: to))
      }
    }
    if case .array(let findings)? = members["findings"] {
      for case .object(let finding) in findings {
        guard case .string(let kind)? = finding["kind"], case .string(let key)? = finding["key"]
        else { continue }
        parsed.findings.append(
          "\(kind) | \(key) | " + strings(finding["path"]).joined(separator: " -> ")
        )
      }
    }
    return parsed
  }

  /// The difference between the committed file and this graph, as lines a reviewer reads:
  /// `+` for what the graph has and the file lacks, `-` for the reverse, `~` for a changed key.
  func difference(from committed: Parsed, fileName: String) -> (differs: Bool, text: String) {
    guard let current = Self.parse(json) else { return (true, "error: could not compare\n") }
    var lines: [String] = []
    if committed.schemaVersion != current.schemaVersion {
      lines.append(
        "~ schema version \(committed.schemaVersion) -> \(current.schemaVersion)"
      )
    }
    let modulesBefore = Set(committed.modules)
    let modulesAfter = Set(current.modules)
    lines += modulesAfter.subtracting(modulesBefore).sorted().map { "+ module \($0)" }
    lines += modulesBefore.subtracting(modulesAfter).sorted().map { "- module \($0)" }
    let before = Set(committed.edges)
    let after = Set(current.edges)
    lines += after.subtracting(before).sorted().map { "+ edge \($0.from) -> \($0.to)" }
    lines += before.subtracting(after).sorted().map { "- edge \($0.from) -> \($0.to)" }
    for key in Set(current.nodes.keys).union(committed.nodes.keys).sorted() {
      switch (committed.nodes[key], current.nodes[key]) {
      case (nil, let now?): lines.append("+ key \(key) (\(now))")
      case (let was?, nil): lines.append("- key \(key) (\(was))")
      case (let was?, let now?) where was != now: lines.append("~ key \(key): \(was) -> \(now)")
      default: break
      }
    }
    let findingsBefore = Set(committed.findings)
    let findingsAfter = Set(current.findings)
    lines += findingsAfter.subtracting(findingsBefore).sorted().map { "+ finding \($0)" }
    lines += findingsBefore.subtracting(findingsAfter).sorted().map { "- finding \($0)" }
    guard !lines.isEmpty else {
      return (
        false,
        "\(fileName) matches the traced graph: \(current.nodes.count) keys, "
          + "\(current.edges.count) edges\n"
      )
    }
    let header =
      "\(fileName) differs from the traced graph (+ traced now, - in the file); "
      + "write it again with --format json --output \(fileName):"
    return (true, ([header] + lines).joined(separator: "\n") + "\n")
  }
}
