/// Sets values on the process-wide root container, once, at launch.
///
/// The root is the container that is current outside any
/// ``withDependencies(_:operation:)-((DependencyValues)->Void,_)`` scope: what Dispatch, detached
/// tasks and framework callbacks read. Call this first thing in the app's entry point, before
/// anything reads a dependency:
///
/// ```swift
/// @main
/// struct MyApp: App {
///   init() {
///     prepareDependencies {
///       $0.apiBaseURL = "https://api.example.com"
///     }
///   }
///   // …
/// }
/// ```
///
/// Every scope derived from the root sees the values, unless it overrides them. Explicit
/// containers (``DependencyValues/init(context:)``) and the containers of tests do not.
///
/// A value already handed out never changes. A key that the root already built or read, or that
/// a value it built read, or that an earlier call prepared, keeps its value; the call reports it
/// (in a test, as an issue; otherwise on standard error) with this call's site, the first
/// call's, and the keys it did not apply; the other keys are applied. A second call is always
/// reported. In the preview context a later call replaces the values of the keys it sets, since
/// a preview runs its setup again; values built from the old ones keep them.
///
/// `update` runs on a fresh container built for the root's context: a read there (such as
/// `$0.api.baseURL = …`, which reads `api` first) builds the value in that container, not in
/// the root. Setting `context` has no effect on the root; use `TINY_DEPENDENCY_CONTEXT`.
/// Transient keys have no value to prepare and are reported.
///
/// - Parameters:
///   - fileID: The call's file, for the report of a later call.
///   - filePath: The call's file path, for a test issue.
///   - line: The call's line.
///   - column: The call's column.
///   - update: Sets the values; what it returns is returned.
/// - Returns: The value `update` returns.
/// - Throws: What `update` throws; then nothing is applied.
@discardableResult
public func prepareDependencies<R>(
  fileID: String = #fileID,
  filePath: String = #filePath,
  line: Int = #line,
  column: Int = #column,
  _ update: (inout DependencyValues) throws -> R
) rethrows -> R {
  let site = PreparedRoot.CallSite(fileID: fileID, line: line)
  let root = DependencyValues.processRoot.storage
  var result: R?
  if let message = try PreparedRoot.process.prepare(root, at: site, { result = try update(&$0) }) {
    IssueReporter.report(message, fileID: fileID, filePath: filePath, line: line, column: column)
  }
  // `prepare` runs `update` exactly once, or throws what it threw.
  return result!
}

extension DependencyValues {
  /// The keys ``prepareDependencies(fileID:filePath:line:column:_:)`` set on the process root,
  /// sorted by name within each call.
  package static var preparedKeys: [any DependencyKey.Type] {
    PreparedRoot.process.values.map(\.key.type)
  }

  /// Sets on this container the values ``prepareDependencies(fileID:filePath:line:column:_:)``
  /// set on the process root: how a test container that does not derive from the root opts in.
  package mutating func includePreparedDependencies() {
    for (key, box) in PreparedRoot.process.values {
      setOverride(box, for: key.id)
    }
  }

  /// Whether a value that `prepareDependencies` set reaches this container: it is the process
  /// root or derives from it.
  func seesPreparedValue(of id: ObjectIdentifier) -> Bool {
    var node: DependencyStorage? = storage
    while let current = node {
      if current.isProcessRoot { return PreparedRoot.process.isPrepared(id) }
      node = current.parent
    }
    return false
  }
}
