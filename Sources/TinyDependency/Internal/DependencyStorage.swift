/// A value built for a key, and the keys it read while being built.
struct BuiltValue: Sendable {
  let box: AnyBox
  /// Every key the build read, directly or through the keys it read.
  let inputs: Set<ObjectIdentifier>
  /// The key the value was built for.
  let key: KeyType
  /// The keys the build read itself, in the order it first read them.
  let reads: [KeyType]
  /// Whether the value holds a `@Dependency` made while it was built, which keeps this scope.
  var capturesScope = false
}

/// A key type, kept to name and tell apart the keys of graphs and messages.
///
/// `@unchecked Sendable`: a metatype is an immutable, process-wide identity; it is only used
/// here for its identity, its name and its `lifetime`, none of which touch isolated state.
struct KeyType: @unchecked Sendable, Hashable {
  let type: any DependencyKey.Type

  init(_ type: any DependencyKey.Type) { self.type = type }

  var id: ObjectIdentifier { ObjectIdentifier(type) }

  static func == (lhs: KeyType, rhs: KeyType) -> Bool { lhs.id == rhs.id }

  func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// The cache and scope identity behind a ``DependencyValues``.
///
/// Each container or scope that overrides something has its own storage, linked to the one
/// it was derived from. A storage builds each key's value at most once (exactly once under
/// concurrent first reads) and never holds its mutex while a value is built. A derived
/// storage reuses a value built by an ancestor when none of the keys that value read were
/// overridden in between.
///
/// `@unchecked Sendable`: `entries` and `isFrozen` are guarded by `mutex`. `overrides`,
/// `changedKeys`, `context` and `choosesContext` are written only while the storage is uniquely
/// referenced and not yet frozen (see `DependencyValues.prepareToMutate()`), that is, before
/// any other thread can see it; afterwards they are immutable, which is also why `overrides`
/// skips dynamic exclusivity checks.
@usableFromInline
final class DependencyStorage: @unchecked Sendable {
  private enum Entry {
    case building(BuildFrame)
    case built(BuiltValue)
  }

  /// The storage this one was derived from; nil for a root container.
  let parent: DependencyStorage?
  /// The number of storages above this one.
  let depth: Int
  /// A number no other storage of this process has, to recognize it without keeping it alive.
  @usableFromInline
  let serial: UInt64 = DependencyStorage.nextSerial()
  /// Whether this is the storage of the process-wide root that is current when nothing is bound.
  let isProcessRoot: Bool
  /// Set for a container that traces a graph, and inherited by the storages derived from it.
  let recorder: TraceRecorder?
  /// The test this storage belongs to, inherited by the storages derived from it: reads through
  /// it take the slow path, which tells the test (see `TestScope`).
  let testScope: TestScope?
  /// Whether `testScope` is set.
  let belongsToTest: Bool
  /// Whether a read with nothing bound asks TinyDependencyTesting for the running test's root:
  /// set on the process root when that product is linked (see `TestRoots`).
  @usableFromInline
  let routesUnboundReads: Bool
  /// The values set on this storage and on the ones it derives from.
  @usableFromInline @exclusivity(unchecked)
  private(set) var overrides: PersistentMap
  /// Keys overridden in this storage relative to `parent`.
  private(set) var changedKeys: Set<ObjectIdentifier> = []
  /// The context values are built for.
  private(set) var context: DependencyContext
  /// Whether this storage chose its context itself, so nothing above it can be reused.
  private(set) var choosesContext: Bool
  /// Whether a test value that falls back to the live default is reported as an issue.
  /// Inherited by derived storages; written only before the storage is shared.
  package private(set) var reportsLiveFallbacks = false

  private let mutex = ConditionMutex()

  /// The state `mutex` guards. It lives behind a pointer so that accesses, already serialized by
  /// the mutex, skip the dynamic exclusivity checks a class's stored `var` would get.
  private struct Guarded {
    var isFrozen = false
    var entries: [ObjectIdentifier: Entry] = [:]
    /// Scopes combining a weakly captured scope with this one, by the captured scope's serial.
    var mergedScopes: [UInt64: DependencyStorage] = [:]
    /// `overrides` with its layers moved into the trie, once a derived storage asked for it.
    var flattenedOverrides: PersistentMap?
  }

  /// The boxes of `entries` that are built, for reads that take no lock. Inserts happen with
  /// `mutex` held; `entries` keeps every box alive.
  private let builtIndex = BuiltIndex()

  private let guarded: UnsafeMutablePointer<Guarded> = {
    let pointer = UnsafeMutablePointer<Guarded>.allocate(capacity: 1)
    pointer.initialize(to: Guarded())
    return pointer
  }()

  private var isFrozen: Bool {
    get { guarded.pointee.isFrozen }
    _modify { yield &guarded.pointee.isFrozen }
  }

  private var entries: [ObjectIdentifier: Entry] {
    get { guarded.pointee.entries }
    _modify { yield &guarded.pointee.entries }
  }

  /// Creates a root storage.
  init(
    context: DependencyContext?,
    isProcessRoot: Bool = false,
    recorder: TraceRecorder? = nil,
    testScope: TestScope? = nil
  ) {
    self.parent = nil
    self.depth = 0
    self.isProcessRoot = isProcessRoot
    self.recorder = recorder
    self.testScope = testScope
    self.belongsToTest = testScope != nil
    self.routesUnboundReads = isProcessRoot && TestRoots.provider != nil
    self.overrides = PersistentMap()
    self.context = context ?? ContextDetection.process.context
    self.choosesContext = context != nil
  }

  private static let serialLock = Lock()
  nonisolated(unsafe) private static var lastSerial: UInt64 = 0

  private static func nextSerial() -> UInt64 {
    serialLock.withLock {
      lastSerial += 1
      return lastSerial
    }
  }

  deinit {
    guarded.deinitialize(count: 1)
    guarded.deallocate()
  }

  /// Creates a storage derived from `parent`, with nothing changed yet.
  init(deriving parent: DependencyStorage) {
    self.parent = parent
    self.depth = parent.depth + 1
    self.isProcessRoot = false
    self.recorder = parent.recorder
    self.testScope = parent.testScope
    self.belongsToTest = parent.belongsToTest
    self.routesUnboundReads = false
    self.overrides = parent.overridesForDerivedStorage()
    self.reportsLiveFallbacks = parent.reportsLiveFallbacks
    self.context = parent.context
    self.choosesContext = false
  }

  // MARK: - Mutation before sharing

  /// Whether this storage may still be changed in place by its only owner.
  var isMutable: Bool { mutex.withLock { !isFrozen } }

  /// Prevents further in-place changes; called before the storage is shared or read from.
  ///
  func freeze() {
    mutex.withLock { isFrozen = true }
  }

  /// The overrides a storage derived from this one starts from: with more than a couple of
  /// layers, a flattened copy made once and shared by every derived storage, so that scopes
  /// entered again and again from this one each add one layer to a short lookup path.
  func overridesForDerivedStorage() -> PersistentMap {
    guard overrides.layerCount > PersistentMap.sharedLayers else { return overrides }
    return mutex.withLock {
      if let flattened = guarded.pointee.flattenedOverrides { return flattened }
      let flattened = overrides.flattened()
      guarded.pointee.flattenedOverrides = flattened
      isFrozen = true
      return flattened
    }
  }

  /// Replaces all overrides, for a storage that stands in for one that is gone.
  func setOverrides(_ map: PersistentMap) {
    overrides = map
    changedKeys.formUnion(map.keys)
  }

  func setOverride(_ box: AnyBox, for key: ObjectIdentifier) {
    overrides.set(key, box)
    changedKeys.insert(key)
  }

  func setReportsLiveFallbacks(_ enabled: Bool) {
    reportsLiveFallbacks = enabled
  }

  func choose(_ newContext: DependencyContext) {
    context = newContext
    choosesContext = true
  }

  /// The storage combining the weakly captured scope `serial` with this one, made once.
  func mergedScope(for serial: UInt64, make: () -> DependencyStorage) -> DependencyStorage {
    if let existing = mutex.withLock({ guarded.pointee.mergedScopes[serial] }) { return existing }
    let made = make()
    return mutex.withLock {
      if let existing = guarded.pointee.mergedScopes[serial] { return existing }
      guarded.pointee.mergedScopes[serial] = made
      return made
    }
  }

  // MARK: - Resolving

  /// The override or built value for `id`, for a read that records nothing: the fast path of
  /// every read. Nil for a storage that belongs to a test, whose reads the test must see.
  ///
  /// The box is unretained; it lives as long as this storage.
  @usableFromInline
  func fastBox(for id: ObjectIdentifier) -> Unmanaged<AnyBox>? {
    guard !belongsToTest else { return nil }
    return overrides.unmanagedBox(for: id) ?? builtIndex.box(for: id)
  }

  /// The value already built here for `id`, if any: the fast path of every read.
  ///
  /// The box is unretained; it lives as long as this storage.
  @usableFromInline
  func builtBox(for id: ObjectIdentifier) -> Unmanaged<AnyBox>? {
    builtIndex.box(for: id)
  }

  /// Returns the value of `Key`, building it on first use.
  @inline(__always)
  func value<Key: DependencyKey>(
    for key: Key.Type,
    id: ObjectIdentifier,
    in values: DependencyValues
  ) -> Key.Value {
    if Key.lifetime.kind == .transient {
      return buildTransient(key, id: id, in: values)
    }
    mutex.lock()
    if case .built(let built)? = entries[id] {
      mutex.unlock()
      values.frame?.record(Key.self, inputs: built.inputs)
      return built.box.unbox(as: Key.Value.self)
    }
    mutex.unlock()
    return resolveSlowly(key, id: id, in: values)
  }

  @inline(never)
  private func resolveSlowly<Key: DependencyKey>(
    _ key: Key.Type,
    id: ObjectIdentifier,
    in values: DependencyValues
  ) -> Key.Value {
    let inherited = inheritedValue(for: id)
    mutex.lock()
    isFrozen = true
    while true {
      switch entries[id] {
      case .built(let built)?:
        mutex.unlock()
        values.frame?.record(Key.self, inputs: built.inputs)
        return built.box.unbox(as: Key.Value.self)

      case .building(let builder)?:
        waitForBuild(of: Key.self, by: builder, in: values)

      case nil:
        if let inherited {
          entries[id] = .built(inherited)
          builtIndex.insert(id, inherited.box)
          continue
        }
        let frame = BuildFrame(
          keyType: Key.self,
          context: context,
          parent: values.frame,
          recorder: recorder
        )
        entries[id] = .building(frame)
        mutex.unlock()

        let value = build(key, frame: frame, in: values)
        let trace = frame.finish()
        if trace.fellBack { reportLiveFallback(of: Key.self, readFrom: values.frame) }
        let built = BuiltValue(
          box: Box(value),
          inputs: trace.inputs,
          key: KeyType(Key.self),
          reads: trace.reads.map(KeyType.init),
          capturesScope: frame.capturedScope
        )

        mutex.lock()
        entries[id] = .built(built)
        builtIndex.insert(id, built.box)
        mutex.broadcast()
        mutex.unlock()
        shareWithAncestors(id, built)
        values.frame?.record(Key.self, inputs: built.inputs)
        return value
      }
    }
  }

  /// Waits, with the mutex held on entry and exit, until `builder` finishes, or stops with a
  /// cycle when the wait could never end.
  ///
  /// - A build nested on this thread in `builder` re-reads its key: a cycle, reported at once.
  /// - `builder`'s thread is blocked, through other builds, on a build this thread runs: a cycle
  ///   across threads, reported at once.
  /// - `builder` started this read on another thread (through a task or an escaped scope) but
  ///   does not visibly wait for it: a fire-and-forget task is fine, a blocking hand-off is a
  ///   cycle. After ``crossThreadCycleTimeout`` seconds it is reported as a likely cycle.
  private func waitForBuild<Key: DependencyKey>(
    of key: Key.Type,
    by builder: BuildFrame,
    in values: DependencyValues
  ) {
    let chain = values.frame?.threadChain() ?? []
    if chain.contains(where: { $0 === builder }),
      let path = values.frame?.cyclePath(
        reentering: builder.key,
        in: builder.context
      )
    {
      mutex.unlock()
      reportCycle(path, reentering: [Key.self], recorder: recorder)
    }
    let startedThis = values.frame?.chainContains(builder) ?? false
    if let innermost = chain.first {
      BlockedThreads.register(innermost, waitingOn: builder)
    }
    defer { if !chain.isEmpty { BlockedThreads.unregister() } }
    var waited = 0.0
    while case .building(let current)? = entries[builder.key], current === builder {
      if let loop = BlockedThreads.loop(from: chain, waitingOn: builder) {
        mutex.unlock()
        reportCycle(
          loop.path,
          reentering: loop.continuation,
          acrossThreads: true,
          recorder: recorder
        )
      }
      if !mutex.wait(seconds: 0.25) {
        waited += 0.25
        if startedThis && waited >= Self.crossThreadCycleTimeout,
          let path = values.frame?.cyclePath(reentering: builder.key, in: builder.context)
        {
          mutex.unlock()
          reportCycle(path, reentering: [Key.self], acrossThreads: true, recorder: recorder)
        }
      }
    }
  }

  /// In strict mode, reports that a test used `Key`'s live default for want of a test value.
  private func reportLiveFallback<Key: DependencyKey>(
    of key: Key.Type,
    readFrom reader: BuildFrame?
  ) {
    guard reportsLiveFallbacks, context == .test else { return }
    var chain: [String] = []
    var frame = reader
    while let current = frame {
      chain.append(current.keyName)
      frame = current.parent
    }
    let whereRead =
      chain.isEmpty
      ? "read directly in the test"
      : "read while building " + chain.reversed().joined(separator: " -> ")
    let name = Key.debugName
    IssueReporter.report(
      "\(name) has no testValue of its own, so a test used its live defaultValue "
        + "(\(whereRead)). Declare `static var testValue` on \(name), or override it for "
        + "the test with `.dependency(…)` or `withDependencies`."
    )
  }

  /// How long a read waits for a build that started it on another thread before the two are
  /// reported as a likely cycle.
  static let crossThreadCycleTimeout = 5.0

  private func buildTransient<Key: DependencyKey>(
    _ key: Key.Type,
    id: ObjectIdentifier,
    in values: DependencyValues
  ) -> Key.Value {
    freeze()
    let frame = BuildFrame(
      keyType: Key.self,
      context: context,
      parent: values.frame,
      recorder: recorder
    )
    let value = build(key, frame: frame, in: values)
    let trace = frame.finish()
    if trace.fellBack { reportLiveFallback(of: Key.self, readFrom: values.frame) }
    values.frame?.record(Key.self, inputs: trace.inputs)
    return value
  }

  /// Runs the key's builder with `values` bound as current and `frame` recording its reads.
  private func build<Key: DependencyKey>(
    _ key: Key.Type,
    frame: BuildFrame,
    in values: DependencyValues
  ) -> Key.Value {
    if let path = values.frame?.cyclePath(reentering: frame.key, in: frame.context) {
      reportCycle(path, reentering: [Key.self], recorder: recorder)
    }
    var scoped = values
    scoped.frame = frame
    let context = self.context
    return DependencyValues.$bound.withValue(scoped) {
      Key.value(for: context)
    }
  }

  /// Offers a value built here to the highest ancestor that would have built the same: none of
  /// the keys it read, nor the key, were overridden in between, and the context is the same.
  /// Scopes that override unrelated keys (one per request, say) then share one value.
  private func shareWithAncestors(_ id: ObjectIdentifier, _ built: BuiltValue) {
    // A value holding a wrapper that captured this scope would carry its overrides outside it.
    guard !choosesContext, !built.capturesScope else { return }
    var changed = changedKeys
    var target: DependencyStorage?
    var node = parent
    while let ancestor = node, !changed.contains(id), built.inputs.isDisjoint(with: changed) {
      target = ancestor
      if ancestor.choosesContext { break }
      changed.formUnion(ancestor.changedKeys)
      node = ancestor.parent
    }
    target?.adopt(id, built)
  }

  /// Keeps `built` as this storage's value for `id`, unless it already has or builds one.
  private func adopt(_ id: ObjectIdentifier, _ built: BuiltValue) {
    mutex.withLock {
      guard entries[id] == nil else { return }
      isFrozen = true
      entries[id] = .built(built)
      builtIndex.insert(id, built.box)
    }
  }

  /// A value an ancestor built that this storage can share: none of the keys it read, nor the
  /// key itself, were overridden between that ancestor and this storage.
  private func inheritedValue(for id: ObjectIdentifier) -> BuiltValue? {
    guard !choosesContext else { return nil }
    var changed = changedKeys
    var node = parent
    while let ancestor = node {
      if let built = ancestor.builtValue(for: id), !changed.contains(id),
        built.inputs.isDisjoint(with: changed)
      {
        return built
      }
      if ancestor.choosesContext { return nil }
      changed.formUnion(ancestor.changedKeys)
      node = ancestor.parent
    }
    return nil
  }

  private func builtValue(for id: ObjectIdentifier) -> BuiltValue? {
    mutex.withLock {
      if case .built(let built)? = entries[id] { return built }
      return nil
    }
  }

  /// The values this storage holds, and those of its ancestors that they read, transitively:
  /// everything its graph shows.
  var builtValuesWithTheirReads: [BuiltValue] {
    var result = builtValues
    var seen = Set(result.map(\.key.id))
    var index = 0
    while index < result.count {
      for read in result[index].reads where !seen.contains(read.id) {
        seen.insert(read.id)
        var node: DependencyStorage? = self
        while let storage = node {
          if let built = storage.builtValue(for: read.id) {
            result.append(built)
            break
          }
          node = storage.parent
        }
      }
      index += 1
    }
    return result
  }

  /// The values this storage holds, built here or shared from an ancestor.
  var builtValues: [BuiltValue] {
    mutex.withLock {
      entries.values.compactMap { if case .built(let built) = $0 { built } else { nil } }
    }
  }
}
