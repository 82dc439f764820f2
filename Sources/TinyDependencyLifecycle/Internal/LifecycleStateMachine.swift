/// A container's preparation and shutdown as a pure state machine: the builds in flight, by
/// key; whether the container shut down, after which no build starts; the builds a shutdown
/// cancels and awaits.
///
/// Each method takes an event and returns what the caller does next, after releasing the lock
/// that guards the machine (``Lifecycle`` holds it): join a build, look for a stored value,
/// start a build, or refuse. Nothing here runs user code, waits or takes a lock, so the machine
/// is tested alone against a reference model, together with each build's
/// ``PreparationStateMachine`` (`LifecycleStateMachineTests`).
struct LifecycleStateMachine<Build: AnyObject, Shutdown> {
  /// The builds in flight, by key.
  private(set) var inFlight: [ObjectIdentifier: Build] = [:]
  /// How many builds left `inFlight`: a caller that looked for a stored value with no lock held
  /// sees that a build left (and stored its value) meanwhile.
  private var removals: UInt64 = 0
  /// The shutdown, once one began.
  private(set) var shutdown: Shutdown?

  /// Whether builds may still start.
  var isOpen: Bool { shutdown == nil }

  /// What ``find(_:)`` and ``start(_:for:after:)`` tell the caller.
  enum Action {
    /// The container is shutting down: nothing starts.
    case refuse
    /// A build of the key is in flight: wait for it.
    case join(Build)
    /// None is: look for a stored value with no lock held, then start one, passing `stamp`.
    case lookForValue(stamp: UInt64)
    /// The build passed in is now the key's build in flight: run it.
    case start
  }

  /// A prepare of `key` asks what to do.
  func find(_ key: ObjectIdentifier) -> Action {
    guard shutdown == nil else { return .refuse }
    if let build = inFlight[key] { return .join(build) }
    return .lookForValue(stamp: removals)
  }

  /// A prepare that found no stored value offers `build` for `key`; `stamp` is what ``find(_:)``
  /// returned. If a build left in between, its value may be stored now: look again.
  mutating func start(_ build: Build, for key: ObjectIdentifier, after stamp: UInt64) -> Action {
    guard shutdown == nil else { return .refuse }
    if let running = inFlight[key] { return .join(running) }
    guard removals == stamp else { return .lookForValue(stamp: removals) }
    inFlight[key] = build
    return .start
  }

  /// `build` settled (or was given up): it leaves, so a later prepare after a failure builds
  /// again.
  mutating func remove(_ build: Build, for key: ObjectIdentifier) {
    guard inFlight[key] === build else { return }
    inFlight[key] = nil
    removals &+= 1
  }

  /// A shutdown is asked for: the one in progress, or the one `begin` makes from the builds in
  /// flight (which it cancels and awaits), after which nothing starts. `begin` only makes the
  /// shutdown's task; it runs no user code.
  mutating func shutDown(_ begin: ([Build]) -> Shutdown) -> Shutdown {
    if let shutdown { return shutdown }
    let made = begin(Array(inFlight.values))
    shutdown = made
    return made
  }
}
