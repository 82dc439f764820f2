internal import TinyDependency
internal import TinyDependencyGraph

/// What a check reads: the keys listed, their trace in the test context, and their trace in
/// the preview context when previews are checked.
struct CheckInput {
  let keys: [any DependencyKey.Type]
  let traced: DependencyGraph.TraceDetails
  let preview: DependencyGraph.TraceDetails?
}

/// One function per kind of finding of ``DependencyCheck/validate(_:previews:configure:)``.
extension DependencyCheck {
  /// Every check that validation runs, in order. A new kind of check is one more entry here, and
  /// one more ``DependencyFinding/Kind``: the testing product's validator and the command-line
  /// check both run this list.
  static let checks: [@Sendable (CheckInput) -> [DependencyFinding]] = [
    { missingTestValues($0.keys, traced: $0.traced) },
    { liveValuesInTests($0.keys, traced: $0.traced) },
    { cycles(in: $0.traced.graph) },
    { unsetInputs(in: $0.traced.graph) },
    { stalledKeys($0.traced) },
    { captiveDependencies($0.keys, in: $0.traced.graph) },
    { collectionFindings($0.keys, traced: $0.traced) },
    { input in input.preview.map { missingPreviewValues(input.keys, preview: $0) } ?? [] },
  ]

  /// Listed keys that fell back to their live default in the test context.
  static func missingTestValues(
    _ keys: [any DependencyKey.Type],
    traced: DependencyGraph.TraceDetails
  ) -> [DependencyFinding] {
    let fellBack = Set(traced.fellBack)
    return keys.compactMap { traced.graph.node(for: $0) }.filter(fellBack.contains).map { node in
      let mainActor = node.isMainActorKey
      let fix = "Declare `\(mainActor ? "@MainActor " : "")static var testValue` on \(node.name)."
      return DependencyFinding(
        key: node.name,
        kind: .missingTestValue,
        path: [node.name],
        message: "has no testValue of its own: tests get its live defaultValue"
          + (mainActor ? " (built by validation, on the main actor, where it cannot stop)" : "")
          + ". " + fix,
        fix: fix
      )
    }
  }

  /// Listed keys whose test value reaches another key's live default, with the path there.
  static func liveValuesInTests(
    _ keys: [any DependencyKey.Type],
    traced: DependencyGraph.TraceDetails
  ) -> [DependencyFinding] {
    var findings: [DependencyFinding] = []
    for start in keys.compactMap({ traced.graph.node(for: $0) }) {
      for target in traced.fellBack where target != start {
        guard let path = path(in: traced.graph, from: start, to: target) else { continue }
        let names = path.map(\.name)
        let fix = "Declare a testValue on \(target.name), or override it for tests."
        findings.append(
          DependencyFinding(
            key: start.name,
            kind: .liveValueInTests,
            path: names,
            message: "building its test value reaches \(target.name), which has no testValue: "
              + names.joined(separator: " -> ") + ". " + fix,
            fix: fix
          )
        )
      }
    }
    return findings
  }

  /// Every cycle of the graph.
  static func cycles(in graph: DependencyGraph) -> [DependencyFinding] {
    graph.cycles.map { cycle in
      let names = (cycle + [cycle[0]]).map(\.name)
      let fix = "Read one of these lazily, or move what both need into a key of its own."
      return DependencyFinding(
        key: cycle[0].name,
        kind: .cycle,
        path: names,
        message: "is part of a dependency cycle: " + names.joined(separator: " -> ") + ". " + fix,
        fix: fix
      )
    }
  }

  /// Inputs read while nothing had set them, and async keys read without being prepared.
  static func unsetInputs(in graph: DependencyGraph) -> [DependencyFinding] {
    graph.missingInputs.map { input in
      guard !input.isAsyncKey else {
        return DependencyFinding(
          key: input.name,
          kind: .unpreparedAsyncKey,
          path: [input.name],
          message: "is an async key, which validation reads without preparing: set its test "
            + "value in `configure`, and prepare it in tests with `prepare([\(input.name).self])`.",
          fix: "Set its test value in `configure`, and prepare it in tests with "
            + "`prepare([\(input.name).self])`."
        )
      }
      return DependencyFinding(
        key: input.name,
        kind: .unsetInput,
        path: [input.name],
        message: "is an input that nothing set: set it in `configure`, or declare a "
          + "testValue on \(input.name).",
        fix: "Set it in `configure`, or declare a testValue on \(input.name)."
      )
    }
  }

  /// Keys whose resolution had not finished when the trace gave up on it.
  static func stalledKeys(_ traced: DependencyGraph.TraceDetails) -> [DependencyFinding] {
    traced.stalled.map { node in
      DependencyFinding(
        key: node.name,
        kind: .stalled,
        path: [node.name],
        message: "did not finish resolving within \(Int(DependencyGraph.traceTimeout)) s: "
          + "a build blocks on something (a lock, a semaphore) that waits for it.",
        fix:
          "Find the lock or semaphore the build waits on, and don't wait for a value being built."
      )
    }
  }

  /// Listed keys that fall back to their live default in the preview context, as `preview`,
  /// a trace in that context, found.
  static func missingPreviewValues(
    _ keys: [any DependencyKey.Type],
    preview: DependencyGraph.TraceDetails
  ) -> [DependencyFinding] {
    let missing = Set(preview.fellBack.map(\.name))
    return keys.compactMap { key in
      let name = preview.graph.node(for: key)?.name ?? "\(key)"
      guard missing.contains(name) else { return nil }
      return DependencyFinding(
        key: name,
        kind: .missingPreviewValue,
        path: [name],
        message: "has no previewValue of its own: previews get its live defaultValue.",
        fix: "Declare `static var previewValue` on \(name)."
      )
    }
  }

  /// A shortest path of edges from `start` to `target`.
  static func path(
    in graph: DependencyGraph,
    from start: DependencyGraph.Node,
    to target: DependencyGraph.Node
  ) -> [DependencyGraph.Node]? {
    var previous: [DependencyGraph.Node: DependencyGraph.Node] = [:]
    var queue = [start]
    var seen: Set<DependencyGraph.Node> = [start]
    var next = 0
    while next < queue.count {
      let node = queue[next]
      next += 1
      if node == target {
        var path = [node]
        while let before = previous[path[0]] { path.insert(before, at: 0) }
        return path
      }
      for next in graph.dependencies(of: node) where seen.insert(next).inserted {
        previous[next] = node
        queue.append(next)
      }
    }
    return nil
  }
}
