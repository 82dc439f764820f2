import TinyDependency

/// The async side of one storage: the builds of async keys in flight, and whether it was shut down.
///
/// Kept beside the storage, as the core's attachment, made on first use: scopes that never
/// prepare anything pay nothing for it.
final class Lifecycle: Sendable {
  enum Phase {
    case open
    case shuttingDown(Task<ShutdownReport, any Error>)
  }

  private struct State {
    var inFlight: [ObjectIdentifier: PendingBuild] = [:]
    /// How many builds left `inFlight`, to see that one did while no lock was held.
    var removals: UInt64 = 0
    var phase = Phase.open
  }

  private let state = Locked(State())

  // MARK: - Per container

  /// The lifecycle of `values`' storage, made on first use.
  static func of(_ values: DependencyValues) -> Lifecycle {
    values.attachment { Lifecycle() }
  }

  /// The lifecycle of `values`' storage, if anything was prepared or shut down in it.
  static func existing(_ values: DependencyValues) -> Lifecycle? {
    values.existingAttachment(as: Lifecycle.self)
  }

  // MARK: - Builds

  /// What ``build(for:existing:start:)`` found.
  enum Found {
    case built(PreparedValue)
    case pending(PendingBuild, isNew: Bool)
  }

  /// The value of `key` if `existing` finds it, else its build in flight here, joined, or a new
  /// one made by `start`, unless the container is shutting down.
  ///
  /// `existing` (which takes the container's lock) and `start` run with no lock of this
  /// lifecycle held. A build stores its value before it leaves `inFlight`, and each removal is
  /// counted: when a build left in between, the value it stored is looked for again, so a
  /// second build of a key never starts beside a stored value.
  func build(
    for key: ObjectIdentifier,
    existing: () -> PreparedValue?,
    start: () -> PendingBuild
  ) throws -> Found {
    while true {
      let (inFlight, removals) = try state.withLock { state throws in
        guard case .open = state.phase else { throw ShutDownFailure() }
        return (state.inFlight[key], state.removals)
      }
      if let inFlight { return .pending(inFlight, isNew: false) }
      if let built = existing() { return .built(built) }
      let made = start()
      let found = try state.withLock { state throws -> Found? in
        guard case .open = state.phase else { throw ShutDownFailure() }
        if let pending = state.inFlight[key] { return .pending(pending, isNew: false) }
        guard state.removals == removals else { return nil }
        state.inFlight[key] = made
        return .pending(made, isNew: true)
      }
      if let found { return found }
    }
  }

  /// The build of `key` in flight, if any.
  func inFlightBuild(for key: ObjectIdentifier) -> PendingBuild? {
    state.withLock { $0.inFlight[key] }
  }

  /// Forgets `build` once it settled, so that a later prepare after a failure builds again.
  func remove(_ build: PendingBuild) {
    state.withLock { state in
      if state.inFlight[build.key.id] === build {
        state.inFlight[build.key.id] = nil
        state.removals &+= 1
      }
    }
  }

  var isOpen: Bool {
    state.withLock { state in
      if case .open = state.phase { return true }
      return false
    }
  }

  /// The shutdown in progress or done; or `start`'s, given the builds in flight, after which no
  /// new build starts here.
  func shutdownTask(
    start: ([PendingBuild]) -> Task<ShutdownReport, any Error>
  ) -> Task<ShutdownReport, any Error> {
    state.withLock { state in
      if case .shuttingDown(let task) = state.phase { return task }
      let task = start(Array(state.inFlight.values))
      state.phase = .shuttingDown(task)
      return task
    }
  }
}

/// Thrown by `Lifecycle.build(for:existing:start:)` when the container is shutting down.
struct ShutDownFailure: Error {}
