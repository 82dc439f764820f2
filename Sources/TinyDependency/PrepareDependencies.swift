/// Sets values on the process-wide root container, once, at launch; inside a running test, on
/// that test's root, once per test.
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
/// Called inside a running test (with TinyDependencyTesting linked), it prepares that test's
/// root instead (or the scope in the test that chose a context of its own, such as one made
/// with `withDependencies { $0.context = .live }`), so tests never see each other's values and
/// the process root is left alone; each test may call it once.
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
/// the root. Setting `context` is honoured only by a test's own root, before it built anything
/// and while no scope is bound; otherwise it is reported (use `TINY_DEPENDENCY_CONTEXT` for the
/// process root). Transient keys have no value to prepare and are reported.
///
/// - Parameters:
///   - fileID: The call's file, for the report of a later call.
///   - filePath: The call's file path, for a test issue.
///   - line: The call's line.
///   - column: The call's column.
///   - update: Sets the values.
/// - Returns: What `update` returns.
/// - Throws: What `update` throws; then nothing is applied.
@discardableResult
public func prepareDependencies<R>(
  fileID: String = #fileID,
  filePath: String = #filePath,
  line: Int = #line,
  column: Int = #column,
  _ update: (inout DependencyValues) throws -> R
) rethrows -> R {
  let site = SourceSite(fileID, filePath, line, column)
  let target = EntryPointTarget.current()
  var values = DependencyValues(context: target.storage.context)
  let result =
    target.isTest
    ? try IssueReporter.applyingOverrides.withValue(true) { try update(&values) }
    : try update(&values)
  var messages: [String] = []
  var storage = target.storage
  if values.context != storage.context {
    if let honoured = target.choose(values.context) {
      storage = honoured
    } else {
      messages.append(target.contextMessage(values.context, at: site))
    }
  }
  let changes = EntryPointRecord.changes(in: values)
  let outcome = target.registry.apply(changes, to: storage, at: site)
  if let message = outcome.message(at: site, context: storage.context) {
    messages.append(message)
  }
  for message in messages {
    IssueReporter.report(message, at: site)
  }
  return result
}
