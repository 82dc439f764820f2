/// One shared build's coordination as a pure state machine: who observes it, whether it settled,
/// and whether everyone stopped observing it before it did.
///
/// Each method takes an event and returns the action the caller carries out after releasing
/// the lock that guards the machine (``PendingBuild`` holds it): observers to call, a builder to
/// cancel. Nothing here runs user code, waits or takes a lock, so the machine is tested alone,
/// without threads, against a reference model (`PreparationStateMachineTests`).
struct PreparationStateMachine<Observer, Outcome> {
  /// The build's outcome, once it settled.
  private(set) var outcome: Outcome?
  /// The observations in progress, by number.
  private(set) var observers: [UInt64: Observer] = [:]
  private var lastObservation: UInt64 = 0
  /// Set when the last observer stopped before the build settled.
  private var everyoneLeft = false

  /// Whether the build has an outcome.
  var isSettled: Bool { outcome != nil }

  /// Whether everyone who observed the build stopped before it settled.
  var isAbandoned: Bool { everyoneLeft && outcome == nil }

  /// What ``observe(_:)`` tells the caller.
  enum ObserveAction {
    /// The observer is kept under this number, and called when the build settles.
    case observing(UInt64)
    /// The build had settled: the caller delivers this outcome at once.
    case deliver(Outcome)
  }

  /// A new observer of the build.
  mutating func observe(_ observer: Observer) -> ObserveAction {
    if let outcome { return .deliver(outcome) }
    lastObservation += 1
    observers[lastObservation] = observer
    return .observing(lastObservation)
  }

  /// What ``stopObserving(_:)`` tells the caller.
  enum StopAction {
    /// Nothing: the observation had ended already (the build settled, or it stopped before).
    case none
    /// The observer was removed without being called; the caller tells it it stopped, and
    /// cancels the builder when `cancelsBuild` (nobody observes the build any more).
    case stopped(Observer, cancelsBuild: Bool)
  }

  /// The observation numbered `id` stops.
  mutating func stopObserving(_ id: UInt64) -> StopAction {
    guard outcome == nil, let observer = observers.removeValue(forKey: id) else { return .none }
    if observers.isEmpty { everyoneLeft = true }
    return .stopped(observer, cancelsBuild: observers.isEmpty)
  }

  /// What ``settle(_:)`` tells the caller.
  enum SettleAction {
    /// The build had settled before: nothing changes.
    case alreadySettled
    /// The caller calls each observer with the outcome.
    case notify([Observer], Outcome)
  }

  /// The build ends with `outcome`, unless it ended before.
  mutating func settle(_ outcome: Outcome) -> SettleAction {
    guard self.outcome == nil else { return .alreadySettled }
    self.outcome = outcome
    // In the order they started observing, so the same events always give the same calls.
    let told = observers.sorted { $0.key < $1.key }.map(\.value)
    observers = [:]
    return .notify(told, outcome)
  }
}
