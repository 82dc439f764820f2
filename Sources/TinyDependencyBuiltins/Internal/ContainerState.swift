import TinyDependency

/// State that a built-in keeps per container, such as the counter of an incrementing UUID
/// generator: each test case gets a container of its own, so each starts fresh.
///
/// A value made once (a trait's `.incrementing`, say) names its state with an `owner` object;
/// every container that uses the value keeps its own state for it.
///
/// `@unchecked Sendable`: `states` is guarded by its lock.
final class ContainerState: @unchecked Sendable {
  private let states = Locked<[ObjectIdentifier: (owner: AnyObject, state: AnyObject)]>([:])

  /// The state of the current container for the value `owner` names.
  static var current: ContainerState {
    DependencyValues.current[ContainerStateKey.self]
  }

  /// The state for `owner`, made by `make` on first use.
  func state<State: AnyObject>(for owner: AnyObject, make: () -> State) -> State {
    states.withLock { states in
      if let found = states[ObjectIdentifier(owner)]?.state as? State { return found }
      let made = make()
      // The owner is kept alive with its state, so its identifier is never reused meanwhile.
      states[ObjectIdentifier(owner)] = (owner, made)
      return made
    }
  }
}

/// The per-container state of the built-ins; built once per container in every context.
enum ContainerStateKey: DependencyKey {
  static var defaultValue: ContainerState { ContainerState() }
  static var testValue: ContainerState { ContainerState() }
  static var previewValue: ContainerState { ContainerState() }
}
