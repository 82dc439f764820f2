/// Where a call of `prepareDependencies` applies its values: the process root, or the root of
/// the running test.
struct EntryPointTarget {
  /// The storage the values go in.
  let storage: DependencyStorage
  /// What earlier calls prepared there: once per process, or once per test.
  let registry: EntryPointRecord
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
    guard let provider = UnboundRoots.provider, provider.currentRootName() != nil else {
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
      node.observer?.attachment(EntryPointRecord.init) ?? node.attachment(EntryPointRecord.init)
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
    guard let replaceable, let provider = UnboundRoots.provider,
      storage.state.withLock({ $0.entries.values.isEmpty })
    else { return nil }
    let observer = storage.observer
    let made =
      if let observer {
        DependencyValues(context: context, observer: observer)
      } else {
        DependencyValues(context: context)
      }
    guard provider.replaceCurrentRoot(replaceable, with: made) else { return nil }
    if observer?.attachment(EntryPointRecord.init) == nil {
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

extension EntryPointRecord {
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
      if current.isProcessRoot { return EntryPointRecord.process.isPrepared(id) }
      // A test's root, or a container bound in a test, that `prepareDependencies` prepared.
      let prepared =
        current.observer?.attachment(EntryPointRecord.init)
        ?? current.existingAttachment(EntryPointRecord.self)
      if prepared?.isPrepared(id) == true { return true }
      node = current.parent
    }
    return false
  }
}
