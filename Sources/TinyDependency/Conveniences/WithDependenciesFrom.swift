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
  return try withDependencies(values, operation: operation)
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
  return try withDependencies(values, operation: operation)
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
  return try await withDependencies(values, isolation: isolation, operation: operation)
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
  return try await withDependencies(values, isolation: isolation, operation: operation)
}
