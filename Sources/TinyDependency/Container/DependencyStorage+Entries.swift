/// A storage's entries, the values built (or being built) here: the only code that writes them.
/// Each function runs under the storage's lock, taking it or handed its state, and decides from
/// what it finds; the caller carries the decision out after the lock is released, so no user code
/// runs and no thread waits with a lock held.
extension DependencyStorage {
  /// What a read does next, from what this storage holds for its key.
  enum Step {
    /// The value is here: return it.
    case reuse(BuiltValue)
    /// Another build of this key is in progress here: wait for it, unless that is a cycle.
    case wait(BuildFrame)
    /// Nothing here yet: ask the scopes around this one (`lookAbove`).
    case lookAbove
    /// This thread now builds the value here; `frame` records the build.
    case build(BuildFrame)
    /// The value's lifetime ended (its scope instance ended, or it was shut down): reading it
    /// stops.
    case ended
  }

  /// What this storage holds for `id`, in `state` (its own); with `claiming`, a missing value is
  /// claimed for a build by this thread, recorded by `frame`.
  func look(
    _ state: inout StorageState,
    for id: ObjectIdentifier,
    claiming: Bool,
    frame: @autoclosure () -> BuildFrame
  ) -> Step {
    switch state.entries[id] {
    case .built(let built)?: return built.box.hasEnded ? .ended : .reuse(built)
    case .building(let builder)?: return .wait(builder)
    case nil:
      guard claiming else { return .lookAbove }
      let frame = frame()
      state.entries[id] = .building(frame)
      return .build(frame)
    }
  }

  /// Announces that `frame`, in a scope below, builds `id`; false when this scope already has
  /// an entry for it.
  func mark(_ id: ObjectIdentifier, buildingBy frame: BuildFrame) -> Bool {
    state.withLock { state in
      guard state.entries[id] == nil else { return false }
      state.entries[id] = .building(frame)
      return true
    }
  }

  /// Withdraws the claim or announcement `frame` made here on `id`, if it is still there: the
  /// threads that wait on it look again.
  func withdrawClaim(of id: ObjectIdentifier, by frame: BuildFrame) {
    state.withLock { state in
      if case .building(let builder)? = state.entries[id], builder === frame {
        state.entries[id] = nil
      }
    }
    state.broadcast()
  }

  /// Keeps `built` for `id` in `state` (this storage's), for the lock-free index too.
  func adopt(_ built: BuiltValue, as id: ObjectIdentifier, in state: inout StorageState) {
    freeze(in: &state)
    state.entries[id] = .built(built)
    builtIndex.insert(id, built.box)
  }

  /// Waits at most `timeout` seconds until `frame` no longer builds `id` here; whether it has.
  func waitWhileBuilding(_ id: ObjectIdentifier, by frame: BuildFrame, timeout: Double) -> Bool {
    state.wait(
      while: {
        if case .building(let builder)? = $0.entries[id] { builder === frame } else { false }
      },
      timeout: timeout
    )
  }
}
