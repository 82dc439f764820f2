/// The seam's second half: one object per type kept beside a storage, for the layers above it
/// (the lifecycle's state, a cached factory's products, `prepareDependencies`' record). The
/// storage keeps them and frees them with itself; it never looks inside.
extension StorageState {
  /// The attachment of type `T`, made by `make` on first use. Runs under the storage's lock:
  /// `make` is a layer's initializer, never user code.
  mutating func attachment<T: AnyObject & Sendable>(_ make: () -> T) -> T {
    let id = ObjectIdentifier(T.self)
    if let existing = attachments[id] as? T { return existing }
    let made = make()
    attachments[id] = made
    return made
  }

  /// Keeps `object` as the attachment of its type, in place of any made before.
  mutating func attach<T: AnyObject & Sendable>(_ object: T) {
    attachments[ObjectIdentifier(T.self)] = object
  }

  /// The attachment of type `T`, if one was made.
  func existingAttachment<T: AnyObject & Sendable>(_ type: T.Type) -> T? {
    attachments[ObjectIdentifier(T.self)] as? T
  }
}

extension DependencyStorage {
  /// The attachment of type `T` kept beside this storage, made by `make` on first use; with
  /// `pinning`, the storage is never merged into one derived from it (its state must stay
  /// where the layer put it).
  func attachment<T: AnyObject & Sendable>(pinning: Bool = false, _ make: () -> T) -> T {
    state.withLock { state in
      if pinning { state.isPinned = true }
      return state.attachment(make)
    }
  }

  /// The attachment of type `T` kept beside this storage, if one was made.
  func existingAttachment<T: AnyObject & Sendable>(_ type: T.Type) -> T? {
    state.lockedIfMade?.withLock { $0.existingAttachment(type) }
  }
}

/// The outcome a layer made when a scope instance ended (`endScopeInstance`), told of a value of
/// the instance's scope whose build finished after the end: the lifecycle shuts it down once,
/// and returns when it is down; the read that built it then stops.
package protocol InstanceEnding: AnyObject, Sendable {
  /// Ends `value` unless the end already did, and returns once it is done.
  func arrivedAfterEnd(_ value: BuiltValue, owner: DependencyValues)
}
