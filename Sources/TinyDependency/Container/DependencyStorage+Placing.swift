/// Values a storage did not build on a read: placed here (a placed async value, a value
/// handed in at the entry point), and values whose lifetime ended (their scope instance ended,
/// or they were shut down).
extension DependencyStorage {
  /// The value of `id` built here or shared from an ancestor, without building anything; nil
  /// for a value that was shut down.
  func existingBuiltValue(for id: ObjectIdentifier) -> BuiltValue? {
    if let built = builtValue(for: id) { return built.box.hasEnded ? nil : built }
    guard case .share(let inherited) = lookAbove(for: id, placed: placedHere) else {
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

  /// The keys whose values this storage placed itself: a value built here from one of them
  /// stays in this scope, and one built above from their own is not shared into it.
  var placedHere: Set<ObjectIdentifier>? {
    state.lockedIfMade?.withLock { $0.placed?.keys }
  }

  /// Keeps a value placed from outside (a placed async value) as this storage's built value of
  /// `id`, in place of one
  /// that was shut down if need be; returns false, storing nothing, when the storage already
  /// has or builds one.
  func place(_ id: ObjectIdentifier, _ built: BuiltValue) -> Bool {
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
  func hasEndedHereOrAbove(_ id: ObjectIdentifier) -> Bool {
    var node: DependencyStorage? = self
    while let storage = node {
      if storage.state.withLock({ $0.hasEnded(id) }) { return true }
      node = storage.parent
    }
    return false
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
