import TinyDependency

/// The async side of one storage: the builds of async keys in flight, and whether it was shut down.
///
/// Kept beside the storage, as the core's attachment, made on first use: scopes that never
/// prepare anything pay nothing for it.
final class Lifecycle: Sendable {
  /// The builds in flight and the shutdown, as a state machine carried out with the lock
  /// released.
  private let state = Locked(
    LifecycleStateMachine<PendingBuild, Task<ShutdownReport, any Error>>()
  )

  // MARK: - Per container

  /// The lifecycle of `values`' storage, made on first use.
  static func of(_ values: DependencyValues) -> Lifecycle {
    values.attachment(pinning: true) { Lifecycle() }
  }

  /// The lifecycle of `values`' storage, if anything was prepared or shut down in it.
  static func existing(_ values: DependencyValues) -> Lifecycle? {
    values.existingAttachment(as: Lifecycle.self)
  }

  // MARK: - Builds

  /// What ``build(for:existing:start:)`` found.
  enum Found {
    case built(BuiltValue)
    case pending(PendingBuild, isNew: Bool)
  }

  /// The value of `key` if `existing` finds it, else its build in flight here, joined, or a new
  /// one made by `start`, unless the container is shutting down.
  ///
  /// `existing` (which takes the container's lock) and `start` run with no lock of this
  /// lifecycle held. A build stores its value before it leaves, and the machine counts each
  /// departure: when a build left in between, the value it stored is looked for again, so a
  /// second build of a key never starts beside a stored value.
  func build(
    for key: ObjectIdentifier,
    existing: () -> BuiltValue?,
    start: () -> PendingBuild
  ) throws -> Found {
    var action = state.withLock { $0.find(key) }
    var made: PendingBuild?
    while true {
      switch action {
      case .refuse: throw ShutDownFailure()
      case .join(let build): return .pending(build, isNew: false)
      case .start: return .pending(made!, isNew: true)
      case .lookForValue(let stamp):
        if let built = existing() { return .built(built) }
        let build = made ?? start()
        made = build
        action = state.withLock { $0.start(build, for: key, after: stamp) }
      }
    }
  }

  /// The build of `key` in flight, if any.
  func inFlightBuild(for key: ObjectIdentifier) -> PendingBuild? {
    state.withLock { $0.inFlight[key] }
  }

  /// Forgets `build` once it settled, so that a later prepare after a failure builds again.
  func remove(_ build: PendingBuild) {
    state.withLock { $0.remove(build, for: build.key.id) }
  }

  var isOpen: Bool { state.withLock { $0.isOpen } }

  // MARK: - Shutdown

  /// The values whose shutdown something already took on (by their build's identity), and the
  /// keys of values a build shut down as they arrived while the container shut down.
  private let shutdowns = Locked<(claimed: Set<ObjectIdentifier>, onArrival: [String])>(([], []))

  /// The values of `built` that nothing took on to shut down before; each is taken on now, so
  /// that a value is shut down once whatever ends it (the shutdown, or its late arrival).
  func claim(_ built: [BuiltValue]) -> [BuiltValue] {
    shutdowns.withLock { state in built.filter { state.claimed.insert($0.identity).inserted } }
  }

  /// Notes that a build shut its value down as it arrived, after the shutdown began.
  func noteShutDownOnArrival(_ key: String) { shutdowns.withLock { $0.onArrival.append(key) } }

  /// The keys whose values builds shut down as they arrived, in the order they started.
  var shutDownOnArrival: [String] { shutdowns.withLock { $0.onArrival } }

  /// The shutdown in progress or done; or `start`'s, given the builds in flight, after which no
  /// new build starts here.
  func shutdownTask(
    start: ([PendingBuild]) -> Task<ShutdownReport, any Error>
  ) -> Task<ShutdownReport, any Error> {
    state.withLock { $0.shutDown(start) }
  }
}

/// Thrown by `Lifecycle.build(for:existing:start:)` when the container is shutting down.
struct ShutDownFailure: Error {}
