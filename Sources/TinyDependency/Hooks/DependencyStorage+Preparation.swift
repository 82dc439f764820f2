/// What preparation (async keys) and shutdown need from a storage: values stored without a
/// synchronous build, and values retired after their shutdown.
extension DependencyStorage {
  /// The value of `id` built here or shared from an ancestor, without building anything; nil
  /// for a value that was shut down.
  func existingBuiltValue(for id: ObjectIdentifier) -> BuiltValue? {
    if let built = builtValue(for: id) { return built.box.isRetired ? nil : built }
    guard case .share(let inherited) = lookAbove(for: id, prepared: preparedHere) else {
      return nil
    }
    return state.withLock { state in
      if case .built(let earlier)? = state.entries[id] {
        return earlier.box.isRetired ? nil : earlier
      }
      guard state.entries[id] == nil else { return nil }
      adopt(inherited, as: id, in: &state)
      return inherited
    }
  }

  /// The keys whose values this storage prepared itself: a value built here from one of them
  /// stays in this scope, and one built above from their own is not shared into it.
  var preparedHere: Set<ObjectIdentifier>? {
    state.lockedIfMade?.withLock { $0.lifecycle?.prepared }
  }

  /// Keeps a value that `prepare` built as this storage's built value of `id`, in place of one
  /// that was shut down if need be; returns false, storing nothing, when the storage already
  /// has or builds one.
  func storePrepared(_ id: ObjectIdentifier, _ built: BuiltValue) -> Bool {
    let stored = state.withLock { state in
      if case .built(let old)? = state.entries[id], old.box.isRetired {
        // Reads still in flight may hold it.
        state.lifecycleValues().replaced.append(old.box)
      } else if state.entries[id] != nil {
        return false
      }
      adopt(built, as: id, in: &state)
      state.lifecycleValues().prepared.insert(id)
      return true
    }
    if stored { state.broadcast() }
    return stored
  }

  /// Marks the values of `ids` as shut down: reads of them stop from now on, here and in every
  /// scope that holds them (their boxes carry the mark, see `Box.swift`).
  func retire(_ ids: Set<ObjectIdentifier>) {
    state.withLock { state in
      for id in ids {
        if case .built(let built)? = state.entries[id] { built.box.retire() }
      }
    }
  }

  /// Whether `id`'s value was shut down here or in a storage this one derives from.
  func wasShutDown(_ id: ObjectIdentifier) -> Bool {
    var node: DependencyStorage? = self
    while let storage = node {
      if storage.state.withLock({ $0.hasRetired(id) }) { return true }
      node = storage.parent
    }
    return false
  }
}

/// What preparation and shutdown leave in a storage, made when first needed: most storages
/// (request scopes) never prepare anything, and carry one nil word for it
/// (`allocations.scope.entry.read`: 7,649 instructions with three of these as fields of the
/// storage's state, 7,534 with them behind one reference).
final class LifecycleValues {
  /// The object TinyDependencyLifecycle keeps beside the storage (`attachment(_:)`).
  var attachment: (any AnyObject & Sendable)?
  /// The caches of `DependencyFactory.cached` products made in this storage (`sideTable(_:)`).
  var sideTable: (any AnyObject & Sendable)?
  /// The boxes of the values the user handed in as built ones (`prepareDependencies`), by
  /// identity: the user's, never shut down.
  var handedIn: Set<ObjectIdentifier> = []
  /// The keys whose values the storage prepared itself (`storePrepared`): changed there, for
  /// the sharing rules, as an override is.
  var prepared: Set<ObjectIdentifier> = []
  /// Shut-down values that `storePrepared` replaced, kept for reads still in flight.
  var replaced: [AnyBox] = []
}

extension StorageState {
  /// `lifecycle`, made now if it was not.
  mutating func lifecycleValues() -> LifecycleValues {
    if let lifecycle { return lifecycle }
    let made = LifecycleValues()
    lifecycle = made
    return made
  }
}

extension DependencyStorage {
  /// The values built here that the storages this one derives from don't share, and that the
  /// user did not hand in.
  var ownBuiltValues: [BuiltValue] {
    // A storage that holds no value: no walk through the ones above.
    guard state.lockedIfMade != nil, case let own = builtValues, !own.isEmpty else { return [] }
    var inherited = state.withLock { $0.lifecycle?.handedIn ?? [] }
    var node = parent
    while let ancestor = node {
      for built in ancestor.builtValues { inherited.insert(ObjectIdentifier(built.box)) }
      node = ancestor.parent
    }
    return own.filter { !inherited.contains(ObjectIdentifier($0.box)) }
  }
}

/// Stops because `Key`'s value was read after its container shut it down.
func stopReadAfterShutdown<Key: DependencyKey>(
  _ key: Key.Type,
  context: DependencyContext
) -> Never {
  let name = Key.debugName
  let message = """
    TinyDependency: \(name) was read after `shutdown()` shut it down (or a value it read), or \
    after its scope instance ended, in the \(context) context; what it holds is gone.
    Read dependencies only before `shutdown()`: finish or cancel the work that reads \(name) \
    (requests, background tasks) first, then shut down.
    """
  stopWithMessage(message)
}

extension KeySet {
  /// Adds `keys`, if there are any.
  @inline(__always)
  mutating func add(_ keys: Set<ObjectIdentifier>?) {
    guard let keys else { return }
    for key in keys { insert(key) }
  }
}
