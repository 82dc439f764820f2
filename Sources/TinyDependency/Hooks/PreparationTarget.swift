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
  let target = PreparationTarget.current()
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
  let changes = PreparedRoot.changes(in: values)
  let outcome = target.registry.apply(changes, to: storage, at: site)
  if let message = outcome.message(at: site, context: storage.context) {
    messages.append(message)
  }
  for message in messages {
    IssueReporter.report(message, at: site)
  }
  return result
}

/// Where a call of `prepareDependencies` applies its values: the process root, or the root of
/// the running test.
struct PreparationTarget {
  /// The storage the values go in.
  let storage: DependencyStorage
  /// What earlier calls prepared there: once per process, or once per test.
  let registry: PreparedRoot
  /// Whether the call runs inside a test.
  let isTest: Bool
  /// The test root that TinyDependencyTesting keeps, when reads with nothing bound go to it and
  /// it is `storage`: then a context can be honoured by replacing it.
  let replaceable: DependencyValues?

  /// Registries of test roots that have no test scope of their own to keep theirs, by root.
  /// The target of a call made now.
  static func current() -> Self {
    let process = Self(
      storage: DependencyValues.processRoot.storage,
      registry: .process,
      isTest: false,
      replaceable: nil
    )
    guard let provider = TestRoots.provider, provider.currentTestName() != nil else {
      return process
    }
    let bound = DependencyValues.bound
    let current = bound ?? DependencyValues.current
    // The nearest storage that chose its context, or the root: values prepared there reach
    // the current scope.
    var node = current.storage
    var target: DependencyStorage?
    while true {
      if target == nil && (node.choosesContext || node.parent == nil) { target = node }
      guard let parent = node.parent else { break }
      node = parent
    }
    guard !node.isProcessRoot, let target else { return process }
    // Kept by the test's observer (once per test, whichever root it has), else by the root
    // itself, and freed with it.
    let registry =
      node.observer?.attachment(PreparedRoot.init) ?? node.attachment(PreparedRoot.init)
    return Self(
      storage: target,
      registry: registry,
      isTest: true,
      replaceable: bound == nil && target === current.storage ? current : nil
    )
  }

  /// Makes the test's root build for `context`, by replacing it, if nothing was built in it
  /// yet; returns the new root's storage, or nil when the context cannot be honoured.
  func choose(_ context: DependencyContext) -> DependencyStorage? {
    guard let replaceable, let provider = TestRoots.provider,
      storage.state.withLock({ $0.entries.values.isEmpty })
    else { return nil }
    let observer = DependencyValues(storage: storage).attachedObserver
    let made =
      if let observer {
        DependencyValues(context: context, observer: observer)
      } else {
        DependencyValues(context: context)
      }
    guard provider.replaceCurrentTestRoot(replaceable, with: made) else { return nil }
    if observer?.attachment(PreparedRoot.init) == nil {
      made.storage.state.withLock { $0.attach(registry) }
    }
    return made.storage
  }

  /// The report of a context that the call set and that its target cannot take.
  func contextMessage(_ context: DependencyContext, at site: SourceSite) -> String {
    let why =
      isTest
      ? "the test's container builds for \(storage.context): a trait, helper or scope chose "
        + "it, or it built values already. Set the context with `withDependencies { "
        + "$0.context = .\(context) }` around the work, or in the trait's closure."
      : "the process root builds for the detected context, \(storage.context). Set "
        + "TINY_DEPENDENCY_CONTEXT=\(context) in the environment instead."
    return "prepareDependencies at \(site) set the context to \(context), which was not applied: "
      + why
  }
}

extension PreparedRoot {
  /// The values `values` set, sorted by key name; asked of the keys before any lock is taken.
  /// A read in `update` froze the fresh container, and each write after it stacked a storage on
  /// it: the keys changed in every storage of that chain count.
  static func changes(in values: DependencyValues) -> [Change] {
    let overrides = values.storage.overrides
    let chain = sequence(first: values.storage) { $0.parent }
    let changed = chain.reduce(into: KeySet()) { $0.formUnion($1.changedKeys) }
    return changed.compactMap { id -> Change? in
      guard let box = overrides[id] else { return nil }
      let key = KeyType(identifiedBy: id)
      return Change(key: key, box: box, isTransient: key.type.lifetime == .transient)
    }
    .sorted { $0.key.name < $1.key.name }
  }
}

extension DependencyValues {
  /// Whether a value that `prepareDependencies` set reaches this container: set on the process
  /// root, or on the test's root (or a container bound in a test) that this one derives from.
  func seesPreparedValue(of id: ObjectIdentifier) -> Bool {
    var node: DependencyStorage? = storage
    while let current = node {
      if current.isProcessRoot { return PreparedRoot.process.isPrepared(id) }
      // A test's root, or a container bound in a test, that `prepareDependencies` prepared.
      let prepared =
        current.observer?.attachment(PreparedRoot.init)
        ?? current.existingAttachment(PreparedRoot.self)
      if prepared?.isPrepared(id) == true { return true }
      node = current.parent
    }
    return false
  }
}
