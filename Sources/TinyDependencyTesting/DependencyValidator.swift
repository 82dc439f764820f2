import Testing
public import TinyDependency
public import TinyDependencyGraph

/// Checks that keys are ready for tests: each has a test value of its own, building the test
/// values touches no live value, there are no cycles, and every input is set.
///
/// ```swift
/// @Test func everyKeyHasTestValues() {
///   DependencyValidator.check([LoggerKey.self, DatabaseKey.self])
/// }
///
/// @MainActor
/// @Test func everyKeyInTheBinary() throws {
///   DependencyValidator.check(
///     try #require(DependencyValidator.discoveredKeys()),
///     mainActorKeys: try #require(DependencyValidator.discoveredMainActorKeys())
///   )
/// }
/// ```
///
/// Validation resolves each key in a fresh container in the test context with
/// ``/TinyDependencyGraph/DependencyGraph/trace(_:context:configure:)``, so it builds test values,
/// never live ones (main-actor keys aside, below): a resolution that reaches a key without a
/// test value of its own (or, checking previews, without a preview value) records the key, with
/// the path that led there, and stops before its `defaultValue` runs. What that resolution would have read afterwards is
/// not traced; each listed key is traced on its own, so list every key, or use
/// ``discoveredKeys()``.
///
/// The validator sees what goes through the container: reads with `@Dependency`,
/// `DependencyValues.current` or a container's subscript, and the protocol's fallbacks from
/// `testValue` and `previewValue` to `defaultValue`. It cannot see a key's own code calling live
/// code directly: a `testValue` written as `"w(\(OtherKey.defaultValue))"` runs
/// `OtherKey.defaultValue` as a plain static property, which reports no problem. Read other keys
/// through the container (`DependencyValues.current[OtherKey.self]`) so they are checked.
///
/// Main-actor keys are checked on the main actor, under their own names, by
/// ``check(_:mainActorKeys:previews:configure:fileID:filePath:line:column:)``. A build there
/// cannot be parked halfway: a main-actor key without a test value of its own is reported after
/// its live default was built, and a cycle or an unset input met there stops the process.
public enum DependencyValidator {
  /// Validates `keys` and returns the report.
  ///
  /// - Parameters:
  ///   - keys: The keys to check.
  ///   - previews: Also report keys without a `previewValue` of their own.
  ///   - configure: Sets values (inputs, say) on each fresh container before it resolves. It
  ///     runs on the tracing thread while the caller waits, so a cycle or an unset input that a
  ///     read in it meets is a finding, not a hang.
  /// - Returns: One finding per problem, and the traced graph.
  public static func validate(
    _ keys: [any DependencyKey.Type],
    previews: Bool = false,
    configure: @escaping (inout DependencyValues) -> Void = { _ in }
  ) -> DependencyValidationReport {
    let traced = DependencyGraph.traceDetails(
      keys,
      context: .test,
      stopsAtLiveFallbacks: true,
      configure: configure
    )
    let preview =
      previews
      ? DependencyGraph.traceDetails(
        keys,
        context: .preview,
        stopsAtLiveFallbacks: true,
        configure: configure
      ) : nil
    return report(keys, traced: traced, preview: preview)
  }

  /// Validates `keys`, and the main-actor keys `mainActorKeys` on the main actor, and returns
  /// the report; findings name main-actor keys by their own names.
  ///
  /// A main-actor key's build runs on the main actor, where nothing can stop it halfway: a
  /// main-actor key without a test value of its own is reported, and its live default is built
  /// there, as a test reading it would build it (as is a key without a test value that its
  /// test value reads). A cycle or an unset input met on the main actor stops the process with
  /// a message naming the keys.
  ///
  /// - Parameters:
  ///   - keys: The keys to check, traced as by ``validate(_:previews:configure:)``.
  ///   - mainActorKeys: The main-actor keys to check.
  ///   - previews: Also report keys without a `previewValue` of their own.
  ///   - configure: Sets values (inputs, say) on each fresh container before it resolves: on
  ///     the validator's thread for a plain key, on the main actor for a main-actor key, so it
  ///     is `@Sendable` and runs no main-actor code.
  /// - Returns: One finding per problem, and the traced graph.
  @MainActor
  public static func validate(
    _ keys: [any DependencyKey.Type] = [],
    mainActorKeys: [any MainActorDependencyKey.Type],
    previews: Bool = false,
    configure: @escaping @Sendable (inout DependencyValues) -> Void = { _ in }
  ) -> DependencyValidationReport {
    let stored = mainActorKeys.map { $0.storageKey }
    func trace(_ context: DependencyContext) -> DependencyGraph.TraceDetails {
      DependencyGraph.traceDetails(
        keys,
        mainActorKeys: stored,
        context: context,
        stopsAtLiveFallbacks: true,
        configure: configure
      )
    }
    return report(keys + stored, traced: trace(.test), preview: previews ? trace(.preview) : nil)
  }

  /// The report of the traces of `keys` in the test context and, if traced, in the preview one.
  private static func report(
    _ keys: [any DependencyKey.Type],
    traced: DependencyGraph.TraceDetails,
    preview: DependencyGraph.TraceDetails?
  ) -> DependencyValidationReport {
    var findings =
      missingTestValues(keys, traced: traced) + liveValuesInTests(keys, traced: traced)
      + cycles(in: traced.graph) + unsetInputs(in: traced.graph) + stalledKeys(traced)
      + captiveDependencies(keys, in: traced.graph)
    if let preview {
      findings += missingPreviewValues(keys, preview: preview)
    }
    return DependencyValidationReport(
      keyCount: keys.count,
      findings: findings.sorted(),
      graph: traced.graph
    )
  }

  /// Validates `keys` and records one issue per finding at the caller.
  ///
  /// - Parameters:
  ///   - keys: The keys to check.
  ///   - previews: Also report keys without a `previewValue` of their own.
  ///   - configure: Sets values (inputs, say) on each fresh container before it resolves. It
  ///     runs on the tracing thread while the caller waits, so a cycle or an unset input that a
  ///     read in it meets is a finding, not a hang.
  ///   - fileID: The file ID of the caller, where issues are recorded.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  ///   - column: The column of the caller.
  /// - Returns: The report, for further checks.
  @discardableResult
  public static func check(
    _ keys: [any DependencyKey.Type],
    previews: Bool = false,
    configure: @escaping (inout DependencyValues) -> Void = { _ in },
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
  ) -> DependencyValidationReport {
    record(validate(keys, previews: previews, configure: configure), fileID, filePath, line, column)
  }

  /// Validates `keys`, and the main-actor keys `mainActorKeys` on the main actor, as
  /// ``validate(_:mainActorKeys:previews:configure:)`` does, and records one issue per finding
  /// at the caller.
  ///
  /// ```swift
  /// @MainActor
  /// @Test func everyKeyInTheBinary() throws {
  ///   DependencyValidator.check(
  ///     try #require(DependencyValidator.discoveredKeys()),
  ///     mainActorKeys: try #require(DependencyValidator.discoveredMainActorKeys())
  ///   )
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - keys: The keys to check.
  ///   - mainActorKeys: The main-actor keys to check.
  ///   - previews: Also report keys without a `previewValue` of their own.
  ///   - configure: Sets values (inputs, say) on each fresh container before it resolves.
  ///   - fileID: The file ID of the caller, where issues are recorded.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  ///   - column: The column of the caller.
  /// - Returns: The report, for further checks.
  @MainActor
  @discardableResult
  public static func check(
    _ keys: [any DependencyKey.Type] = [],
    mainActorKeys: [any MainActorDependencyKey.Type],
    previews: Bool = false,
    configure: @escaping @Sendable (inout DependencyValues) -> Void = { _ in },
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
  ) -> DependencyValidationReport {
    let report = validate(
      keys,
      mainActorKeys: mainActorKeys,
      previews: previews,
      configure: configure
    )
    return record(report, fileID, filePath, line, column)
  }

  /// Records one issue per finding of `report` at the caller, and returns it.
  private static func record(
    _ report: DependencyValidationReport,
    _ fileID: String,
    _ filePath: String,
    _ line: Int,
    _ column: Int
  ) -> DependencyValidationReport {
    for finding in report.findings {
      // Recorded by the running test, or written to standard error outside one.
      IssueReporter.report(finding.description, at: SourceSite(fileID, filePath, line, column))
    }
    return report
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
    /// A value that lives longer reads a key of a shorter scope (`.scoped`), holding it captive.
    case captiveDependency = "captive dependency"

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
