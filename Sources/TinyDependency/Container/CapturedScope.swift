/// The scope that `@Dependency` wrappers and escaped scopes were made in, shared by all of them,
/// and how it combines with the scopes it is read in.
///
/// A storage hands out one capture of each kind, so every wrapper made in a scope shares one
/// object and one set of decisions: two objects made in one scope and read in another read the
/// same combined container, and build its values once.
/// - A **strong** capture (made outside any build) keeps its storage alive; the wrappers keep
///   it, and the storage refers to it weakly. What it decided for other scopes (a combination
///   derived from the storage) goes away with the last of its wrappers or with the scope read
///   in, whichever is first: a scope whose objects are read in a longer-lived scope is not kept
///   by it.
/// - A **weak** capture (made while a value is built, so usually part of a value the storage
///   caches) must not keep it alive, or the two would keep each other alive. It keeps the
///   storage's parent and its own overrides instead; once the storage is gone, reads go to an
///   equivalent container derived from that parent, so they still share the values of the
///   scopes around it.
///
/// Reading in another scope takes the nearest scope both derive from: a scope derived from the
/// captured one reads itself; the captured one is read when the current scope added nothing
/// since; otherwise a combined container, the captured scope with the current scope's newer
/// overrides on top, made once per pair and dropped when the current scope or the capture goes
/// away.
///
/// A read takes no lock when the scope it happens in last decided for this capture (on Linux;
/// the reading storage's `captureCache`).
///
/// `@unchecked Sendable`: `decisions` and `replacement` live in `state`, behind its lock (made
/// on the first decision on Linux, so that making a capture allocates once); the other stored
/// properties are immutable after `init` (`weakStorage` is a weak reference, which the runtime
/// makes safe to load from any thread).
final class CapturedScope: @unchecked Sendable {
  private enum Decision {
    /// The current scope already contains everything the captured one overrides.
    case current
    /// The current scope adds nothing since the captured one: read from it.
    case captured
    /// Both added overrides: the captured scope with the current one's newer overrides on top.
    case combined(DependencyStorage)
  }

  private struct State: DefaultInitializable {
    /// By the serial of the scope read in; removed when that scope goes away.
    var decisions: [UInt64: Decision] = [:]
    /// For a weak capture: stands in for the storage, to read from once it is gone, and to
    /// combine with other scopes without keeping it alive.
    var replacement: DependencyStorage?
  }

  /// What a scope's `captureCache` keeps this capture's decision under: a serial of its own,
  /// which no other capture or storage ever has. What a decision points to lives as long as the
  /// capture (its `decisions`, or the storage a strong capture keeps), and only a wrapper that
  /// keeps the capture knows the key, so an entry a gone capture left behind is never followed.
  let key: UInt64 = Serials.next()
  private let strongStorage: DependencyStorage?
  private weak var weakStorage: DependencyStorage?
  /// For a weak capture: what rebuilds an equivalent storage.
  private let parent: DependencyStorage?
  private let overrides: PersistentMap
  private let changedKeys: KeySet
  private let context: DependencyContext
  private let choosesContext: Bool
  private let observer: (any DependencyObserver)?
  private let state = LazyLocked<State>()

  /// What a `captureCache` holds for a scope that reads from itself: no storage has this address.
  static let currentScope: UInt = 1

  init(_ storage: DependencyStorage, strong: Bool) {
    strongStorage = strong ? storage : nil
    // Only a weak capture refers to its storage weakly: a weak reference gives the storage a
    // side table, which makes every retain and release of it slower.
    weakStorage = strong ? nil : storage
    parent = strong ? nil : storage.parent
    overrides = storage.overrides
    changedKeys = storage.changedKeys
    context = storage.context
    choosesContext = storage.choosesContext
    observer = storage.observer
  }

  /// Whether reads keep the captured storage alive.
  var isStrong: Bool { strongStorage != nil }

  /// The captured storage, or, for a weak capture whose storage is gone, its replacement.
  var storage: DependencyStorage {
    strongStorage ?? weakStorage ?? replacement
  }

  /// An equivalent of the captured storage that does not keep it alive: derived from its parent,
  /// with its own overrides and context.
  private var replacement: DependencyStorage {
    if let made = state.withLock({ $0.replacement }) { return made }
    let made: DependencyStorage
    if let parent {
      made = DependencyStorage(deriving: parent)
      for key in changedKeys {
        if let box = overrides[key] { made.setOverride(box, for: key) }
      }
      if choosesContext { made.choose(context) }
    } else {
      made = DependencyStorage(
        context: choosesContext ? context : nil,
        overrides: overrides,
        observer: observer
      )
    }
    made.freeze()
    return state.withLock { state in
      if let earlier = state.replacement { return earlier }
      state.replacement = made
      return made
    }
  }

  /// The values to read from in `current`.
  func effectiveValues(current: DependencyValues) -> DependencyValues {
    let reading = current.storage
    if reading.isProcessRoot { return current.with(storage: storage) }
    let decision =
      state.withLock { state in
        let known = state.decisions[reading.serial]
        if let known { remember(known, in: reading) }
        return known
      } ?? decide(reading: reading)
    switch decision {
    case .current: return current
    case .captured: return current.with(storage: storage)
    case .combined(let combined): return current.with(storage: combined)
    }
  }

  /// Caches `decision` in `reading` for the reads that follow there, when what it points to
  /// lives as long as that scope. Call with the lock held.
  private func remember(_ decision: Decision, in reading: DependencyStorage) {
    let target: DependencyStorage?
    switch decision {
    case .current: return reading.captureCache.store(key, Self.currentScope)
    // A weak capture's storage may go away: read it through `storage` each time.
    case .captured: target = strongStorage
    // `decisions` keeps it until `reading` goes away.
    case .combined(let combined): target = combined
    }
    if let target { reading.captureCache.store(key, UInt(bitPattern: ObjectIdentifier(target))) }
  }

  /// Decides how to read in `reading` and keeps the decision while `reading` lives.
  private func decide(reading: DependencyStorage) -> Decision {
    let captured = storage
    reading.freeze()
    let common = DependencyStorage.nearestCommonAncestor(captured, reading)
    let decided: Decision
    if common === captured {
      decided = .current
    } else if common === reading {
      decided = .captured
    } else {
      // A combined storage derives from what it combines: for a weak capture, from the
      // replacement, so that it does not keep the captured storage alive.
      let base = isStrong ? captured : replacement
      decided = .combined(base.combined(with: reading))
    }
    let (kept, isNew) = state.withLock { state in
      // Another thread may have decided first: use one decision, so a value is built once.
      if let earlier = state.decisions[reading.serial] { return (earlier, false) }
      state.decisions[reading.serial] = decided
      remember(decided, in: reading)
      return (decided, true)
    }
    if isNew { reading.observe(self) }
    return kept
  }

  /// Drops the decision for a scope that went away. What it held is released here, outside
  /// the lock: it may hold values whose deinit reads dependencies.
  func forget(_ serial: UInt64) {
    withExtendedLifetime(state.withLock { $0.decisions.removeValue(forKey: serial) }) {}
  }
}

extension DependencyValues {
  /// This container's frame on another storage.
  func with(storage: DependencyStorage) -> DependencyValues {
    var values = DependencyValues(storage: storage)
    values.binding = binding
    return values
  }
}

extension DependencyStorage {
  /// The capture that wrappers and escaped scopes made in this storage share: weak during a build
  /// (`building`); otherwise strong. The wrappers keep a strong capture, which keeps this
  /// storage; the storage refers to it weakly, so that what it decided for other scopes (a
  /// combination derived from this storage) goes away with the last wrapper, not with the scope
  /// read in.
  func capture(building: Bool) -> CapturedScope {
    freeze()
    // Each slot spelled out: a key path here copied the whole state on every wrapper made.
    if let existing = state.withLock({ building ? $0.weakCapture : $0.strongCapture }) {
      return existing
    }
    let made = CapturedScope(self, strong: !building)
    return state.withLock { state in
      if building {
        if let earlier = state.weakCapture { return earlier }
        state.weakCapture = made
      } else {
        if let earlier = state.strongCapture { return earlier }
        state.strongCapture = made
      }
      return made
    }
  }

  /// Notes that `capture` keeps a decision about this storage, to drop when it goes away.
  func observe(_ capture: CapturedScope) {
    state.withLock { state in
      if state.captureWatchers.count >= max(8, 2 * state.liveCaptureWatchers) {
        state.captureWatchers.removeAll { $0.value == nil }
        state.liveCaptureWatchers = state.captureWatchers.count
      }
      state.captureWatchers.append(WeakCapture(value: capture))
    }
  }
}

/// The scope a ``Dependency`` was made in. A read compares its serial alone with the current
/// scope's, so that a read in the scope the wrapper was made in touches nothing else.
@usableFromInline
struct WrapperScope: Sendable {
  /// The ``DependencyStorage/serial`` of the scope the wrapper was made in.
  @usableFromInline
  let serial: UInt64
  /// The scope's capture: strong (it keeps the scope) for a wrapper made outside builds; for one
  /// made while a value was built, weak, since the value may keep the wrapper.
  private let kept: CapturedScope

  /// What a wrapper made now keeps, with one read of the task-local: nil at the process root.
  static func current() -> WrapperScope? {
    guard
      let values = DependencyValues.bound
        ?? (DependencyValues.process.routesUnboundReads ? UnboundRoots.unboundValues() : nil)
    else { return nil }
    return made(in: values)
  }

  /// What a wrapper made in `values` keeps: nil at the process root.
  static func made(in values: DependencyValues) -> WrapperScope? {
    guard !values.storage.isProcessRoot else { return nil }
    let capture = values.captureForBuild(.wrapper) ?? values.storage.capture(building: false)
    return WrapperScope(serial: values.storage.serial, kept: capture)
  }

  /// Whether `current` reads from the scope the wrapper was made in, which then adds nothing.
  @inlinable @inline(__always)
  func isScope(of current: DependencyValues) -> Bool { serial == current.storage.serial }

  /// The container a wrapper made in this scope reads in `current`, another scope: the decision
  /// cached there, with no lock and nothing retained, else the capture's.
  @usableFromInline
  func values(readIn current: DependencyValues) -> DependencyValues {
    if let cached = current.storage.captureCache.find(kept.key) {
      guard cached != CapturedScope.currentScope else { return current }
      // What a cache entry under this key points to lives as long as the capture, which this
      // wrapper keeps.
      let found = Unmanaged<DependencyStorage>.fromOpaque(UnsafeRawPointer(bitPattern: cached)!)
      return current.with(storage: found.takeUnretainedValue())
    }
    return kept.effectiveValues(current: current)
  }
}

extension DependencyValues {
  /// The capture an object or escaped scope made during this container's build keeps: one that
  /// does not keep this container alive; the build is marked as keeping its scope.
  func captureForBuild(_ hold: ScopeHold) -> CapturedScope? {
    guard !storage.isProcessRoot, let frame else { return nil }
    frame.noteCapture(hold)
    return storage.capture(building: true)
  }
}
