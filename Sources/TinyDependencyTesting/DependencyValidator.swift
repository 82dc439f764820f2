public import TinyDependency
public import TinyDependencyValidation

/// The result of a validation: the findings and the graph (defined in TinyDependencyValidation).
public typealias DependencyValidationReport = TinyDependencyValidation.DependencyValidationReport

/// One problem validation found, naming its key (defined in TinyDependencyValidation).
public typealias DependencyFinding = TinyDependencyValidation.DependencyFinding

/// Checks that keys are ready for tests: each has a test value of its own, building the test
/// values touches no live value, there are no cycles, and every input is set.
///
/// The checks are ``/TinyDependencyValidation/DependencyCheck``'s, which runs them from the
/// command line too; the validator records each finding as an issue at its caller.
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
    DependencyCheck.validate(keys, previews: previews, configure: configure)
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
    DependencyCheck.validate(
      keys,
      mainActorKeys: mainActorKeys,
      previews: previews,
      configure: configure
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

extension DependencyValidator {
  /// Every `DependencyKey` type in the process, found in the binaries' protocol conformance
  /// records, or nil where this platform's records can't be read.
  ///
  /// Generic key types have no single type to return and are skipped:
  /// ``skippedGenericKeys()`` names them. Keys are sorted by name. This is
  /// ``/TinyDependencyValidation/DependencyCheck/discoveredKeys()``, which says more.
  ///
  /// - Returns: The key types, or nil where discovery is unsupported.
  public static func discoveredKeys() -> [any DependencyKey.Type]? {
    DependencyCheck.discoveredKeys()
  }

  /// Every `MainActorDependencyKey` type in the process, by its own name, found like
  /// ``discoveredKeys()``; validate them with
  /// ``check(_:mainActorKeys:previews:configure:fileID:filePath:line:column:)``.
  ///
  /// - Returns: The key types, sorted by name, or nil where discovery is unsupported.
  public static func discoveredMainActorKeys() -> [any MainActorDependencyKey.Type]? {
    DependencyCheck.discoveredMainActorKeys()
  }

  /// The names of the generic `DependencyKey` and `MainActorDependencyKey` types that
  /// ``discoveredKeys()`` and ``discoveredMainActorKeys()`` skipped.
  ///
  /// - Returns: Their names, sorted, or nil where discovery is unsupported.
  public static func skippedGenericKeys() -> [String]? {
    DependencyCheck.skippedGenericKeys()
  }
}
