/// What preparation (async keys) and shutdown need from a storage: values stored without a
/// synchronous build, and values retired after their shutdown.
extension DependencyStorage {
  /// The value of `id` built here or shared from an ancestor, without building anything; nil
  /// for a value that was shut down.
  func existingBuiltValue(for id: ObjectIdentifier) -> BuiltValue? {
    if let built = builtValue(for: id) { return built.box.hasEnded ? nil : built }
    guard case .share(let inherited) = lookAbove(for: id, prepared: placedHere) else {
      return nil
    }
    return state.withLock { state in
      if case .built(let earlier)? = state.entries[id] {
        return earlier.box.hasEnded ? nil : earlier
      }
      guard state.entries[id] == nil else { return nil }
      adopt(inherited, as: id, in: &state)
      return inherited
    }
  }

  /// The keys whose values this storage prepared itself: a value built here from one of them
  /// stays in this scope, and one built above from their own is not shared into it.
  var placedHere: Set<ObjectIdentifier>? {
    state.lockedIfMade?.withLock { $0.placed?.keys }
  }

  /// Keeps a value that `prepare` built as this storage's built value of `id`, in place of one
  /// that was shut down if need be; returns false, storing nothing, when the storage already
  /// has or builds one.
  func storePrepared(_ id: ObjectIdentifier, _ built: BuiltValue) -> Bool {
    let stored = state.withLock { state in
      if case .built(let old)? = state.entries[id], old.box.hasEnded {
        // Reads still in flight may hold it.
        state.placedValues().replaced.append(old.box)
      } else if state.entries[id] != nil {
        return false
      }
      adopt(built, as: id, in: &state)
      state.placedValues().keys.insert(id)
      return true
    }
    if stored { state.broadcast() }
    return stored
  }

  /// Marks the values of `ids` as shut down: reads of them stop from now on, here and in every
  /// scope that holds them (their boxes carry the mark, see `Box.swift`).
  func endLifetimes(of ids: Set<ObjectIdentifier>) {
    state.withLock { state in
      if !ids.isEmpty { _ = state.placedValues() }
      for id in ids {
        if case .built(let built)? = state.entries[id] { built.box.endLifetime() }
      }
    }
  }

  /// Whether `id`'s value was shut down here or in a storage this one derives from.
  func wasShutDown(_ id: ObjectIdentifier) -> Bool {
    var node: DependencyStorage? = self
    while let storage = node {
      if storage.state.withLock({ $0.hasEnded(id) }) { return true }
      node = storage.parent
    }
    return false
  }
}

extension DependencyStorage {
  /// The values built here that the storages this one derives from don't share, and that the
  /// user did not hand in.
  var ownBuiltValues: [BuiltValue] {
    // A storage that holds no value: no walk through the ones above.
    guard state.lockedIfMade != nil, case let own = builtValues, !own.isEmpty else { return [] }
    var inherited = existingAttachment(HandedInValues.self)?.boxes ?? []
    var node = parent
    while let ancestor = node {
      for built in ancestor.builtValues { inherited.insert(ObjectIdentifier(built.box)) }
      node = ancestor.parent
    }
    return own.filter { !inherited.contains(ObjectIdentifier($0.box)) }
  }
}

/// Stops because `Key`'s value was read after its container shut it down.
func stopReadAfterEnd<Key: DependencyKey>(
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

/// The boxes of the values the user handed in as built ones (`prepareDependencies`), by
/// identity: the user's, never shut down. An attachment of the root they were handed to.
final class HandedInValues: @unchecked Sendable {
  /// Written and read only under the storage's lock (`StorageState.attachment(_:)`).
  var boxes: Set<ObjectIdentifier> = []
}
