/// The overrides, cache and scope identity behind a ``DependencyValues``.
///
/// Each container or scope that overrides something has its own storage, linked to the one it
/// was derived from. A storage builds each key's value at most once (exactly once under
/// concurrent first reads) and never holds its lock while a value is built. The parts:
/// - this file: what a storage is, and how it changes before it is shared;
/// - `DependencyStorage+Entries.swift`: the values built here, and the only code that writes them;
/// - `DependencyStorage+Resolution.swift`: the miss path, as decisions taken under the lock and
///   carried out after it, top to bottom;
/// - `DependencyStorage+Sharing.swift`: values shared with the scopes around this one;
/// - `CapturedScope.swift`: objects that keep the scope they were made in.
///
/// `@unchecked Sendable`: the mutable state shared between threads lives in `state`, behind its
/// lock (made on first use on Linux, see `LockFree.swift`), and in the atomic `builtIndex` and
/// frozen flag. `parent`, `overrides`, `changedKeys`, `context`, `choosesContext`, `instance`,
/// `observer` and `observesReads` are written only while the storage is uniquely referenced and not yet
/// frozen (see `DependencyValues.prepareToMutate()`), that is, before any other thread can see
/// it; afterwards they are immutable, which is also why they skip dynamic exclusivity checks.
@usableFromInline
final class DependencyStorage: @unchecked Sendable {
  /// The storage this one was derived from; nil for a root container.
  @exclusivity(unchecked)
  private(set) var parent: DependencyStorage?
  /// A number no other storage of this process has, to recognize it without keeping it alive.
  @usableFromInline
  let serial: UInt64 = Serials.next()
  /// Whether this is the storage of the process-wide root that is current when nothing is bound.
  let isProcessRoot: Bool
  /// What a layer above attached to this container (the seam, `DependencyObserver`), inherited
  /// by the storages derived from it.
  @exclusivity(unchecked)
  private(set) var observer: (any DependencyObserver)?
  /// Whether `observer` hears every read: reads through this storage then take the slow path.
  @exclusivity(unchecked)
  private(set) var observesReads: Bool
  /// The values set on this storage and on the ones it derives from.
  @usableFromInline @exclusivity(unchecked)
  private(set) var overrides: PersistentMap
  /// Keys overridden in this storage relative to `parent`.
  @exclusivity(unchecked)
  private(set) var changedKeys = KeySet()
  /// The context values are built for.
  @exclusivity(unchecked)
  private(set) var context: DependencyContext
  /// Whether this storage chose its context itself, so nothing above it can be reused.
  @exclusivity(unchecked)
  private(set) var choosesContext: Bool
  /// Set when the storage is an instance of a named scope (`beginScope`), before it is shared.
  @exclusivity(unchecked)
  var instance: ScopeInstance?

  /// Made on first use on Linux: a scope that only reads overrides never needs it.
  let state = LazyLocked<StorageState>()
  /// The boxes of `state.entries` that are built, for reads that take no lock. Inserts happen
  /// with the lock held; `entries` keeps every box alive.
  let builtIndex = BuiltIndex.make()
  /// Set once the storage is shared or read from (`LockFree.swift`).
  private let frozen = FreezeMark()

  /// Creates a root storage.
  init(
    context: DependencyContext?,
    overrides: PersistentMap = PersistentMap(),
    isProcessRoot: Bool = false,
    observer: (any DependencyObserver)? = nil
  ) {
    self.parent = nil
    self.isProcessRoot = isProcessRoot
    self.observer = observer
    self.observesReads = observer?.observesReads ?? false
    self.overrides = overrides
    self.changedKeys = KeySet(overrides.keys)
    self.context = context ?? ContextDetection.process.context
    self.choosesContext = context != nil
  }

  /// Creates a storage derived from `parent`, with nothing changed yet.
  init(deriving parent: DependencyStorage) {
    self.parent = parent
    self.isProcessRoot = false
    self.observer = parent.observer
    self.observesReads = parent.observesReads
    self.overrides = parent.overridesForDerivedStorage()
    self.context = parent.context
    self.choosesContext = false
  }

  deinit {
    guard let watchers = state.lockedIfMade?.withLock({ $0.captureWatchers }) else { return }
    // Captures that combined their scope with this one no longer need the combination.
    for watcher in watchers {
      watcher.value?.forget(serial)
    }
  }

  /// The number of storages above this one.
  var depth: Int {
    var count = 0
    var node = parent
    while let ancestor = node {
      count += 1
      node = ancestor.parent
    }
    return count
  }

  // MARK: - Mutation before sharing

  /// Whether this storage may still be changed in place by its only owner.
  var isMutable: Bool { !frozen.isSet(state) }

  /// Prevents further in-place changes; called before the storage is shared or read from.
  @inline(__always)
  func freeze() { frozen.set(state) }

  /// Freezes this storage from inside `state.withLock`, with `state` its own.
  func freeze(in state: inout StorageState) { frozen.set(in: &state) }

  /// The overrides a storage derived from this one starts from: with more than a couple of
  /// layers, a flattened copy made once and shared by every derived storage, so that scopes
  /// entered again and again from this one each add one layer to a short lookup path.
  func overridesForDerivedStorage() -> PersistentMap {
    guard overrides.layerCount > PersistentMap.sharedLayers else { return overrides }
    return state.withLock { state in
      if let flattened = state.flattenedOverrides { return flattened }
      let flattened = overrides.flattened()
      state.flattenedOverrides = flattened
      freeze(in: &state)
      return flattened
    }
  }

  /// Overrides `key` with a copy of `box`, which may be shared.
  func setOverride(_ box: AnyBox, for key: ObjectIdentifier) {
    setOverride(linking: box.copied(), for: key)
  }

  /// Overrides `key` with `box`, which nothing else refers to yet.
  func setOverride(linking box: AnyBox, for key: ObjectIdentifier) {
    checkNotFrozen()
    overrides.set(key, linking: box)
    changedKeys.insert(key)
    skipOverwrittenParents()
  }

  /// Attaches `observer` in place of the one inherited, before the storage is shared.
  func setObserver(_ observer: (any DependencyObserver)?) {
    checkNotFrozen()
    self.observer = observer
    observesReads = observer?.observesReads ?? false
  }

  func choose(_ newContext: DependencyContext) {
    checkNotFrozen()
    context = newContext
    choosesContext = true
  }

  /// In debug builds, stops on a change to a storage that other threads may already see.
  private func checkNotFrozen() {
    assert(isMutable, "DependencyStorage: changed after it was frozen")
  }

  /// Derives from the nearest ancestor that something else still refers to: a parent that
  /// nothing but this storage references is merged into it. Keeping it would let a container
  /// variable set and bound over and over (whatever keys each round sets) grow a chain of every
  /// storage it ever had, which a first read then walks.
  ///
  /// Merging keeps what the parent told: its overrides are already this storage's (a derived
  /// storage starts from its parent's), its changed and placed keys become this storage's
  /// changed keys, and the values this storage would have shared from it are kept here. A parent that anything else
  /// references (a bound scope, a copy, an object that captured it) stays: it orders this
  /// storage's overrides after its own. So does one that chose its context, or holds placed
  /// or ended values, unless this storage overrides everything it changed.
  private func skipOverwrittenParents() {
    var inherited: [BuiltValue] = []
    while isKnownUniquelyReferenced(&parent), let skipped = parent, let above = skipped.parent,
      !skipped.choosesContext, skipped.instance == nil,
      skipped.changedKeys.isSubset(of: changedKeys) || !skipped.holdsPlacedValues
    {
      inherited += skipped.valuesToShare(below: changedKeys)
      changedKeys.formUnion(skipped.changedKeys)
      changedKeys.add(skipped.placedHere)
      parent = above
    }
    if !inherited.isEmpty { keepInherited(inherited) }
  }

  // MARK: - Reading

  /// The values this storage holds, built here or shared from an ancestor.
  var builtValues: [BuiltValue] {
    state.withLock { state in
      state.entries.values.compactMap { if case .built(let built) = $0 { built } else { nil } }
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

  func builtValue(for id: ObjectIdentifier) -> BuiltValue? {
    state.withLock { state in
      if case .built(let built)? = state.entries[id] { return built }
      return nil
    }
  }
}
