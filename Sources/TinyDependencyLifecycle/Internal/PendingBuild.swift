import TinyDependency

/// One build of an async key's value in one container, observed by everyone who needs it.
///
/// The build runs in a task of its own, so that concurrent prepares of the same key share it;
/// its builder is cancelled when everyone observing it stopped. Observers are callbacks run when
/// the build settles, so a prepare of many keys waits for all of them in one task, and a
/// build's deadline is the watchdog of the prepare that waits for it.
final class PendingBuild: Sendable {
  typealias Observer = @Sendable (Result<BuiltValue, any Error>) -> Void

  let key: AsyncKeyType
  let record: BuildFrame
  /// Orders builds by when they were made, so a cycle is reported from the one made first.
  let serial = PendingBuild.serials.next()
  private static let serials = Counter()

  private struct State {
    var machine = PreparationStateMachine<Observer, Result<BuiltValue, PreparationError>>()
    var task: Task<Void, Never>?
    /// Called with this build when it is given up before its builder finished.
    var onGiveUp: (@Sendable (PendingBuild) -> Void)?
  }

  private let state = Locked(State())

  /// The build whose builder runs in the current task, if any.
  static var current: PendingBuild? { currentLocal.get() }

  /// The task-local behind ``current``, spelled out rather than with the `@TaskLocal` macro.
  static let currentLocal = TaskLocal<PendingBuild?>(wrappedValue: nil)

  /// The task whose waits count as the current build's: its builder's own task, or a child task
  /// the library made for it. A task the builder starts (`Task {}`) inherits ``current`` but not
  /// this: the builder does not wait for it, so its waits are not the build's.
  private static let attributedTask = TaskLocal<Int?>(wrappedValue: nil)

  /// Runs `body` with the current task as the one whose waits count as the current build's.
  static func attributed<R>(_ body: () async throws -> R) async rethrows -> R {
    try await attributedTask.withValue(withUnsafeCurrentTask { $0?.hashValue }) {
      try await body()
    }
  }

  /// The builds from the one that started the chain down to `self` that build `key` for
  /// `context`, outermost first, if one of them (`self` included) does: a new build of `key`
  /// awaited here would do what that one does, in a loop.
  func chainReentering(_ key: AsyncKeyType, context: DependencyContext) -> [PendingBuild]? {
    var chain: [PendingBuild] = []
    var node: PendingBuild? = self
    while let build = node {
      chain.append(build)
      if build.key == key && build.record.context == context { return chain.reversed() }
      node = build.startedBy
    }
    return nil
  }

  /// The current build, if the current task's waits count as its waits.
  static var awaiting: PendingBuild? {
    guard let build = current, let owner = attributedTask.get(),
      withUnsafeCurrentTask(body: { $0?.hashValue }) == owner
    else { return nil }
    return build
  }

  /// The build whose builder started this one and awaits it, if any.
  let startedBy: PendingBuild?
  /// The timeout of the prepare that started the build: by default, how long a shutdown waits
  /// for it.
  let timeout: Double

  init(
    key: AsyncKeyType,
    record: BuildFrame,
    startedBy: PendingBuild? = nil,
    timeout: Double = DependencyValues.defaultPreparationTimeout
  ) {
    self.key = key
    self.record = record
    self.startedBy = startedBy
    self.timeout = timeout
  }

  /// Starts `body` in a task of its own.
  func start(
    onGiveUp: @escaping @Sendable (PendingBuild) -> Void,
    _ body: @escaping @Sendable () async -> Void
  ) {
    state.withLock { state in
      state.onGiveUp = onGiveUp
      state.task = Task {
        await PendingBuild.currentLocal.withValue(self) {
          await PendingBuild.attributed { await body() }
        }
      }
    }
  }

  /// Whether the build has an outcome, so a late value must be disposed of by its builder.
  var isSettled: Bool { state.withLock { $0.machine.isSettled } }

  /// Whether everyone who observed the build stopped before it settled, so its builder was
  /// cancelled: a new caller waits for it to end, then builds again if it has to.
  var isAbandoned: Bool { state.withLock { $0.machine.isAbandoned } }

  /// Ends the build with `outcome` and tells its observers; returns false if it had already
  /// ended (it timed out), in which case nothing changes.
  @discardableResult
  func settle(_ outcome: Result<BuiltValue, PreparationError>) -> Bool {
    let action = state.withLock { state in
      let action = state.machine.settle(outcome)
      if case .notify = action {
        // The builder's task and the give-up callback refer back to this build: let them go.
        state.task = nil
        state.onGiveUp = nil
      }
      return action
    }
    guard case .notify(let told, let outcome) = action else { return false }
    let delivered = outcome.mapError { $0 as any Error }
    for observer in told { observer(delivered) }
    return true
  }

  /// Fails the build before its builder finished, and cancels the builder; returns false if
  /// the build had settled already.
  @discardableResult
  func giveUp(_ reason: PreparationError.Reason) -> Bool {
    let (task, onGiveUp) = state.withLock { ($0.task, $0.onGiveUp) }
    onGiveUp?(self)
    guard settle(.failure(PreparationError(path: [key.name], reason: reason))) else {
      return false
    }
    task?.cancel()
    return true
  }

  /// Cancels the builder; the build still settles when the builder returns.
  func cancel() {
    state.withLock { $0.task }?.cancel()
  }

  /// Calls `observer` when the build settles; returns the observation's number, or the
  /// outcome at once (not calling `observer`) if the build already settled.
  func observe(_ observer: @escaping Observer) -> (
    id: UInt64?, ready: Result<BuiltValue, any Error>?
  ) {
    switch state.withLock({ $0.machine.observe(observer) }) {
    case .observing(let id): return (id, nil)
    case .deliver(let outcome): return (nil, outcome.mapError { $0 })
    }
  }

  /// Stops an observation; returns its observer if it had not been called. When nobody
  /// observes the build any more, its builder is cancelled.
  @discardableResult
  func stopObserving(_ id: UInt64) -> Observer? {
    guard
      case .stopped(let observer, let abandon) = state.withLock({ $0.machine.stopObserving(id) })
    else { return nil }
    // The builder ends as it can; its outcome settles the build (a value it still makes is
    // shut down, since nobody wants it), so a shutdown waiting for it sees it.
    if abandon { cancel() }
    return observer
  }

  /// Waits for the build's value. If the waiting task is cancelled, it stops waiting with a
  /// `CancellationError`, and the builder is cancelled when nobody waits for it any more.
  func value() async throws -> BuiltValue {
    let slot = ObservationSlot()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let (id, ready) = observe { continuation.resume(with: $0) }
        if let ready { return continuation.resume(with: ready) }
        if !slot.register(id!), let observer = stopObserving(id!) {
          observer(.failure(CancellationError()))
        }
      }
    } onCancel: {
      if let id = slot.cancel(), let observer = stopObserving(id) {
        observer(.failure(CancellationError()))
      }
    }
  }
}

/// The observation a waiting task made, for its cancellation handler, which may run first.
final class ObservationSlot: Sendable {
  private let state = Locked<(id: UInt64?, cancelled: Bool)>((nil, false))

  /// Records the observation; false if the task was already cancelled.
  func register(_ id: UInt64) -> Bool {
    state.withLock { state in
      state.id = id
      return !state.cancelled
    }
  }

  /// Marks the task cancelled; returns the observation to stop, if there is one yet.
  func cancel() -> UInt64? {
    state.withLock { state in
      state.cancelled = true
      return state.id
    }
  }
}
