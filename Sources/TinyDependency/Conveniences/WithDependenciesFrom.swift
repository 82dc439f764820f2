/// Runs a synchronous operation with the dependencies `parent` was made with, then `update`'s
/// overrides: how a model makes a child model that sees what it sees.
///
/// ```swift
/// func openDetail() {
///   detail = withDependencies(from: self) {
///     $0.analytics = .silent
///   } operation: {
///     DetailModel()
///   }
/// }
/// ```
///
/// The dependencies are found through `parent`'s ``Dependency`` properties (with `Mirror`): the
/// scope the first one was made in, combined with the current scope's newer overrides as its
/// reads are. An object that holds no ``Dependency`` is reported, and the operation runs in the
/// current scope.
///
/// - Parameters:
///   - parent: The object whose dependencies the operation should see.
///   - update: Sets the values to use on top of the parent's.
///   - operation: The work to run, such as making a child object.
///   - fileID: The file ID of the caller, where a parent without dependencies is reported.
///   - filePath: The file path of the caller.
///   - line: The line of the caller.
///   - column: The column of the caller.
/// - Returns: The value `operation` returns.
/// - Throws: What `update` or `operation` throws.
public func withDependencies<Parent: AnyObject, R>(
  from parent: Parent,
  _ update: (inout DependencyValues) throws -> Void,
  operation: () throws -> R,
  fileID: String = #fileID,
  filePath: String = #filePath,
  line: Int = #line,
  column: Int = #column
) rethrows -> R {
  var values = DependencyValues.values(of: parent, at: SourceSite(fileID, filePath, line, column))
  try update(&values)
  return try values.bind(operation)
}

/// Runs a synchronous operation with the dependencies `parent` was made with.
///
/// ```swift
/// let detail = withDependencies(from: self) { DetailModel() }
/// ```
///
/// - Parameters:
///   - parent: The object whose dependencies the operation should see.
///   - operation: The work to run, such as making a child object.
///   - fileID: The file ID of the caller, where a parent without dependencies is reported.
///   - filePath: The file path of the caller.
///   - line: The line of the caller.
///   - column: The column of the caller.
/// - Returns: The value `operation` returns.
/// - Throws: What `operation` throws.
public func withDependencies<Parent: AnyObject, R>(
  from parent: Parent,
  operation: () throws -> R,
  fileID: String = #fileID,
  filePath: String = #filePath,
  line: Int = #line,
  column: Int = #column
) rethrows -> R {
  let values = DependencyValues.values(of: parent, at: SourceSite(fileID, filePath, line, column))
  return try values.bind(operation)
}

/// Runs an asynchronous operation with the dependencies `parent` was made with, then `update`'s
/// overrides.
///
/// - Parameters:
///   - parent: The object whose dependencies the operation should see.
///   - isolation: The actor the operation runs on; the caller's by default.
///   - update: Sets the values to use on top of the parent's.
///   - operation: The work to run.
///   - fileID: The file ID of the caller, where a parent without dependencies is reported.
///   - filePath: The file path of the caller.
///   - line: The line of the caller.
///   - column: The column of the caller.
/// - Returns: The value `operation` returns.
/// - Throws: What `update` or `operation` throws.
public func withDependencies<Parent: AnyObject, R>(
  from parent: Parent,
  isolation: isolated (any Actor)? = #isolation,
  _ update: (inout DependencyValues) async throws -> Void,
  operation: () async throws -> R,
  fileID: String = #fileID,
  filePath: String = #filePath,
  line: Int = #line,
  column: Int = #column
) async rethrows -> R {
  var values = DependencyValues.values(of: parent, at: SourceSite(fileID, filePath, line, column))
  try await update(&values)
  return try await values.bind(isolation: isolation, operation)
}

/// Runs an asynchronous operation with the dependencies `parent` was made with.
///
/// - Parameters:
///   - parent: The object whose dependencies the operation should see.
///   - isolation: The actor the operation runs on; the caller's by default.
///   - operation: The work to run.
///   - fileID: The file ID of the caller, where a parent without dependencies is reported.
///   - filePath: The file path of the caller.
///   - line: The line of the caller.
///   - column: The column of the caller.
/// - Returns: The value `operation` returns.
/// - Throws: What `operation` throws.
public func withDependencies<Parent: AnyObject, R>(
  from parent: Parent,
  isolation: isolated (any Actor)? = #isolation,
  operation: () async throws -> R,
  fileID: String = #fileID,
  filePath: String = #filePath,
  line: Int = #line,
  column: Int = #column
) async rethrows -> R {
  let values = DependencyValues.values(of: parent, at: SourceSite(fileID, filePath, line, column))
  return try await values.bind(isolation: isolation, operation)
}

/// What a ``Dependency`` tells about the scope it was made in.
protocol ScopeCapturing {
  /// The scope the wrapper was made in; nil for the process root.
  var capturedScope: CapturedScope? { get }
}

extension Dependency: ScopeCapturing {
  var capturedScope: CapturedScope? { capture }
}

extension DependencyValues {
  /// The values `parent`'s dependencies are read from now; the current ones, reported, when it
  /// holds no ``Dependency``.
  static func values(of parent: AnyObject, at site: SourceSite) -> DependencyValues {
    let current = DependencyValues.current
    var mirror: Mirror? = Mirror(reflecting: parent)
    while let reflected = mirror {
      for child in reflected.children {
        guard let dependency = child.value as? any ScopeCapturing else { continue }
        guard let capture = dependency.capturedScope else { return current }
        return capture.effectiveValues(current: current)
      }
      mirror = reflected.superclassMirror
    }
    IssueReporter.report(
      "withDependencies(from:) was given a \(_typeName(type(of: parent), qualified: false)), which "
        + "holds no @Dependency: its dependencies cannot be found, so the operation runs in the "
        + "current scope. Give the parent a @Dependency property, or make the child inside "
        + "withDependencies { … } operation: { … } instead.",
      at: site
    )
    return current
  }

  /// A container for the default (live) context, with nothing overridden: `$0 = .live`.
  public static var live: DependencyValues { DependencyValues(context: .default) }

  /// A container for the test context, with nothing overridden: `$0 = .test`.
  public static var test: DependencyValues { DependencyValues(context: .test) }

  /// A container for the preview context, with nothing overridden: `$0 = .preview`.
  public static var preview: DependencyValues { DependencyValues(context: .preview) }
}
