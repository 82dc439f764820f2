import Testing
public import TinyDependency

/// Checks that keys are ready for tests: each has a test value of its own, building the test
/// values touches no live value, there are no cycles, and every input is set.
///
/// ```swift
/// @Test func everyKeyHasTestValues() {
///   DependencyValidator.check([LoggerKey.self, DatabaseKey.self])
/// }
///
/// @Test func everyKeyInTheBinary() throws {
///   let keys = try #require(DependencyValidator.discoveredKeys())
///   DependencyValidator.check(keys)
/// }
/// ```
///
/// Validation resolves each key in a fresh container in the test context with
/// ``/TinyDependency/DependencyGraph/trace(_:context:configure:)``, so it builds test values
/// (not live ones): a key whose test value falls back to its default is seen doing so, with the
/// path that led there.
public enum DependencyValidator {
  /// Validates `keys` and returns the report.
  ///
  /// - Parameters:
  ///   - keys: The keys to check.
  ///   - previews: Also report keys without a `previewValue` of their own.
  ///   - configure: Sets values (inputs, say) on each fresh container before it resolves.
  /// - Returns: One finding per problem, and the traced graph.
  public static func validate(
    _ keys: [any DependencyKey.Type],
    previews: Bool = false,
    configure: (inout DependencyValues) -> Void = { _ in }
  ) -> DependencyValidationReport {
    let traced = DependencyGraph.traceDetails(keys, context: .test, configure: configure)
    let graph = traced.graph
    let listed = keys.compactMap { graph.node(for: $0) }
    var findings: [DependencyFinding] = []

    let fellBack = Set(traced.fellBack)
    for node in listed where fellBack.contains(node) {
      findings.append(
        DependencyFinding(
          key: node.name,
          kind: .missingTestValue,
          path: [node.name],
          message: "has no testValue of its own: tests get its live defaultValue. "
            + "Declare `static var testValue` on \(node.name)."
        )
      )
    }
    for start in listed {
      for target in traced.fellBack where target != start {
        guard let path = Self.path(in: graph, from: start, to: target) else { continue }
        let names = path.map(\.name)
        findings.append(
          DependencyFinding(
            key: start.name,
            kind: .liveValueInTests,
            path: names,
            message: "building its test value reaches \(target.name), which has no testValue: "
              + names.joined(separator: " -> ")
              + ". Declare a testValue on \(target.name), or override it for tests."
          )
        )
      }
    }
    for cycle in graph.cycles {
      let names = (cycle + [cycle[0]]).map(\.name)
      findings.append(
        DependencyFinding(
          key: cycle[0].name,
          kind: .cycle,
          path: names,
          message: "is part of a dependency cycle: " + names.joined(separator: " -> ")
            + ". Read one of these lazily, or move what both need into a key of its own."
        )
      )
    }
    for input in graph.missingInputs {
      guard !input.isAsyncKey else {
        findings.append(
          DependencyFinding(
            key: input.name,
            kind: .unpreparedAsyncKey,
            path: [input.name],
            message: "is an async key, which validation reads without preparing: set its test "
              + "value in `configure`, and prepare it in tests with `prepare([\(input.name).self])`."
          )
        )
        continue
      }
      findings.append(
        DependencyFinding(
          key: input.name,
          kind: .unsetInput,
          path: [input.name],
          message: "is an input that nothing set: set it in `configure`, or declare a "
            + "testValue on \(input.name)."
        )
      )
    }
    for node in traced.stalled {
      findings.append(
        DependencyFinding(
          key: node.name,
          kind: .stalled,
          path: [node.name],
          message: "did not finish resolving within \(Int(DependencyGraph.traceTimeout)) s: "
            + "a build blocks on something (a lock, a semaphore) that waits for it."
        )
      )
    }
    if previews {
      let preview = DependencyGraph.traceDetails(keys, context: .preview, configure: configure)
      let missing = Set(preview.fellBack.map(\.name))
      for key in keys {
        let name = preview.graph.node(for: key)?.name ?? "\(key)"
        if missing.contains(name) {
          findings.append(
            DependencyFinding(
              key: name,
              kind: .missingPreviewValue,
              path: [name],
              message: "has no previewValue of its own: previews get its live defaultValue."
            )
          )
        }
      }
    }
    return DependencyValidationReport(
      keyCount: keys.count,
      findings: findings.sorted(),
      graph: graph
    )
  }

  /// Validates `keys` and records one issue per finding at the caller.
  ///
  /// - Parameters:
  ///   - keys: The keys to check.
  ///   - previews: Also report keys without a `previewValue` of their own.
  ///   - configure: Sets values (inputs, say) on each fresh container before it resolves.
  ///   - fileID: The file ID of the caller, where issues are recorded.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  ///   - column: The column of the caller.
  /// - Returns: The report, for further checks.
  @discardableResult
  public static func check(
    _ keys: [any DependencyKey.Type],
    previews: Bool = false,
    configure: (inout DependencyValues) -> Void = { _ in },
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
  ) -> DependencyValidationReport {
    let report = validate(keys, previews: previews, configure: configure)
    for finding in report.findings {
      // Recorded by the running test, or written to standard error outside one.
      IssueReporter.report(
        finding.description,
        fileID: fileID,
        filePath: filePath,
        line: line,
        column: column
      )
    }
    return report
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
    while !queue.isEmpty {
      let node = queue.removeFirst()
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

/// The result of ``DependencyValidator/validate(_:previews:configure:)``.
public struct DependencyValidationReport: Sendable, CustomStringConvertible {
  /// How many keys were validated.
  public let keyCount: Int
  /// One finding per problem, sorted by key.
  public let findings: [DependencyFinding]
  /// The graph traced in the test context.
  public let graph: DependencyGraph

  /// Whether nothing was found.
  public var isComplete: Bool { findings.isEmpty }

  /// A table a developer can act on: one row per finding.
  public var description: String {
    guard !findings.isEmpty else {
      return "Dependency validation: \(keyCount) keys, no problems.\n"
    }
    let keyWidth = max(3, findings.map(\.key.count).max() ?? 0)
    let kindWidth = findings.map(\.kind.description.count).max() ?? 0
    var lines = [
      "Dependency validation: \(keyCount) keys, \(findings.count) "
        + (findings.count == 1 ? "problem" : "problems"),
      "key".padded(keyWidth) + "  " + "problem".padded(kindWidth) + "  detail",
    ]
    for finding in findings {
      lines.append(
        finding.key.padded(keyWidth) + "  " + finding.kind.description.padded(kindWidth) + "  "
          + finding.message
      )
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

/// One problem the validator found, naming its key.
public struct DependencyFinding: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// What kind of problem it is.
  public enum Kind: String, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The key has no `testValue` of its own.
    case missingTestValue = "missing testValue"
    /// Building the key's test value reaches a live value.
    case liveValueInTests = "live value in tests"
    /// The key is part of a dependency cycle.
    case cycle = "cycle"
    /// The key is an input that nothing set.
    case unsetInput = "unset input"
    /// The key is an async key, which validation can't prepare.
    case unpreparedAsyncKey = "unprepared async key"
    /// The key has no `previewValue` of its own.
    case missingPreviewValue = "missing previewValue"
    /// Resolving the key did not finish.
    case stalled = "stalled"

    /// The kind's name, as the report shows it.
    public var description: String { rawValue }

    /// Orders kinds by name.
    public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// The key the finding is about.
  public let key: String
  /// What kind of problem it is.
  public let kind: Kind
  /// The keys involved, in order: a path to a live value, or a cycle.
  public let path: [String]
  /// What is wrong and how to fix it.
  public let message: String

  /// The finding as one line: `Key: message`.
  public var description: String { "\(key): \(message)" }

  /// Orders findings by key, then kind, then path.
  public static func < (lhs: DependencyFinding, rhs: DependencyFinding) -> Bool {
    (lhs.key, lhs.kind, lhs.path.joined(separator: ">"))
      < (rhs.key, rhs.kind, rhs.path.joined(separator: ">"))
  }
}

extension String {
  fileprivate func padded(_ width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
