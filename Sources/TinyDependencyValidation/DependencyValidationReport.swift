public import TinyDependencyGraph

/// The result of ``DependencyCheck/validate(_:previews:configure:)``: the findings and the graph.
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
    let keys = keyCount == 1 ? "1 key" : "\(keyCount) keys"
    guard !findings.isEmpty else {
      return "Dependency validation: \(keys), no problems.\n"
    }
    let keyWidth = max(3, findings.map(\.key.count).max() ?? 0)
    let kindWidth = findings.map(\.kind.description.count).max() ?? 0
    var lines = [
      "Dependency validation: \(keys), \(findings.count) "
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

/// One problem a check found, naming its key.
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
    /// A value that lives longer reads a key of a shorter scope (`.scoped`), holding it captive.
    case captiveDependency = "captive dependency"
    /// A collection or a map that no member was contributed to, and that doesn't allow it.
    case emptyCollection = "empty collection"
    /// Two members of one map (`DependencyMapKey`) with the same map key.
    case duplicateMapKey = "duplicate map key"
    /// A member (`DependencyContribution`) that nothing contributed to its collection.
    case uncontributedMember = "uncontributed member"

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
  /// How to fix it: the end of ``message``, one or two sentences.
  public let fix: String

  init(key: String, kind: Kind, path: [String], message: String, fix: String) {
    self.key = key
    self.kind = kind
    self.path = path
    self.message = message
    self.fix = fix
  }

  /// The finding as the command-line check prints it: kind, key, path and fix.
  ///
  /// ```text
  /// cycle | CycleAKey | CycleAKey -> CycleBKey -> CycleAKey | fix: Read one of these lazily, …
  /// ```
  public var line: String {
    "\(kind) | \(key) | \(path.joined(separator: " -> ")) | fix: \(fix)"
  }

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
