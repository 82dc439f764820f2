/// The async side of one storage: the builds of async keys in flight, and whether it was shut down.
///
/// Kept beside the storage rather than in it, in a registry keyed by the storage's serial, so
/// that scopes that never prepare anything pay nothing for it.
///
/// `@unchecked Sendable`: every mutable property is guarded by `lock`.
final class Lifecycle: @unchecked Sendable {
  enum State {
    case open
    case shuttingDown(Task<ShutdownReport, any Error>)
  }

  private let lock = Lock()
  private var inFlight: [ObjectIdentifier: PendingBuild] = [:]
  private var state = State.open

  // MARK: - The registry

  private struct Entry {
    weak var storage: DependencyStorage?
    let lifecycle: Lifecycle
  }

  private static let registryLock = Lock()
  /// Guarded by `registryLock`.
  nonisolated(unsafe) private static var registry: [UInt64: Entry] = [:]
  /// The registry's size after its last purge of entries whose storage is gone.
  nonisolated(unsafe) private static var purgedAt = 16

  /// The lifecycle of `storage`, made on first use.
  static func of(_ storage: DependencyStorage) -> Lifecycle {
    registryLock.withLock {
      if let entry = registry[storage.serial], entry.storage === storage {
        return entry.lifecycle
      }
      if registry.count >= purgedAt * 2 {
        registry = registry.filter { $0.value.storage != nil }
        purgedAt = max(16, registry.count)
      }
      let made = Lifecycle()
      registry[storage.serial] = Entry(storage: storage, lifecycle: made)
      return made
    }
  }

  /// The lifecycle of `storage`, if anything was prepared or shut down in it.
  static func existing(_ storage: DependencyStorage) -> Lifecycle? {
    registryLock.withLock {
      guard let entry = registry[storage.serial], entry.storage === storage else { return nil }
      return entry.lifecycle
    }
  }

  // MARK: - Builds

  /// What ``build(for:existing:start:)`` found.
  enum Found {
    case built(BuiltValue)
    case pending(PendingBuild, isNew: Bool)
  }

  /// The value of `key` if `existing` finds it, else its build in flight here, joined, or a new
  /// one made by `start`, unless the container is shutting down. A build stores its value
  /// before it leaves `inFlight`, so checking both under the lock never starts a second build.
  func build(
    for key: ObjectIdentifier,
    existing: () -> BuiltValue?,
    start: () -> PendingBuild
  ) throws -> Found {
    try lock.withLock { () throws -> Found in
      guard case .open = state else { throw ShutDownFailure() }
      if let pending = inFlight[key] { return .pending(pending, isNew: false) }
      if let built = existing() { return .built(built) }
      let made = start()
      inFlight[key] = made
      return .pending(made, isNew: true)
    }
  }

  /// The build of `key` in flight, if any.
  func inFlightBuild(for key: ObjectIdentifier) -> PendingBuild? {
    lock.withLock { inFlight[key] }
  }

  /// Forgets `build` once it settled, so that a later prepare after a failure builds again.
  func remove(_ build: PendingBuild) {
    lock.withLock {
      if inFlight[build.key.id] === build { inFlight[build.key.id] = nil }
    }
  }

  var isOpen: Bool {
    lock.withLock {
      if case .open = state { return true }
      return false
    }
  }

  /// The shutdown in progress or done; or `start`'s, given the builds in flight, after which no
  /// new build starts here.
  func shutdownTask(
    start: ([PendingBuild]) -> Task<ShutdownReport, any Error>
  ) -> Task<ShutdownReport, any Error> {
    lock.withLock {
      if case .shuttingDown(let task) = state { return task }
      let task = start(Array(inFlight.values))
      state = .shuttingDown(task)
      return task
    }
  }
}

/// Thrown by `Lifecycle.build(for:existing:start:)` when the container is shutting down.
struct ShutDownFailure: Error {}

/// One build of an async key's value in one container, observed by everyone who needs it.
///
/// The build runs in a task of its own, so that concurrent prepares of the same key share it;
/// its builder is cancelled when everyone observing it stopped. Observers are callbacks run when
/// the build settles, so a prepare of many keys waits for all of them in one task, and a
/// build's deadline is the watchdog of the prepare that waits for it.
///
/// `@unchecked Sendable`: the mutable state is guarded by `lock`; `awaiting` by
/// ``AwaitingBuilds``.
final class PendingBuild: @unchecked Sendable {
  typealias Observer = @Sendable (Result<BuiltValue, any Error>) -> Void

  let key: KeyType
  let frame: BuildFrame
  /// Orders builds by when they were made, so a cycle is reported from the one made first.
  let serial = PendingBuild.serials.next()
  private static let serials = Counter()

  private let lock = Lock()
  private var result: Result<BuiltValue, PreparationError>?
  private var observers: [UInt64: Observer] = [:]
  private var nextObserver: UInt64 = 0
  private var task: Task<Void, Never>?
  /// Called with this build when it is given up before its builder finished.
  private var onGiveUp: (@Sendable (PendingBuild) -> Void)?
  private var abandoned = false

  /// The build whose value this one's builder awaits right now, if any; for finding cycles.
  var awaiting: PendingBuild?

  /// The build whose builder runs in the current task, if any.
  @TaskLocal static var current: PendingBuild?

  init(key: KeyType, frame: BuildFrame) {
    self.key = key
    self.frame = frame
  }

  /// Starts `body` in a task of its own.
  func start(
    onGiveUp: @escaping @Sendable (PendingBuild) -> Void,
    _ body: @escaping @Sendable () async -> Void
  ) {
    lock.withLock {
      self.onGiveUp = onGiveUp
      task = Task { await PendingBuild.$current.withValue(self) { await body() } }
    }
  }

  /// Whether the build has an outcome, so a late value must be disposed of by its builder.
  var isSettled: Bool { lock.withLock { result != nil } }

  /// Whether everyone who observed the build stopped before it settled, so its builder was
  /// cancelled: a new caller waits for it to end, then builds again if it has to.
  var isAbandoned: Bool { lock.withLock { abandoned && result == nil } }

  /// Ends the build with `outcome` and tells its observers; returns false if it had already
  /// ended (it timed out), in which case nothing changes.
  @discardableResult
  func settle(_ outcome: Result<BuiltValue, PreparationError>) -> Bool {
    let told = lock.withLock { () -> [Observer]? in
      guard result == nil else { return nil }
      result = outcome
      // The builder's task and the give-up callback refer back to this build: let them go.
      task = nil
      onGiveUp = nil
      defer { observers = [:] }
      return Array(observers.values)
    }
    guard let told else { return false }
    let delivered = outcome.mapError { $0 as any Error }
    for observer in told { observer(delivered) }
    return true
  }

  /// Fails the build before its builder finished, and cancels the builder.
  func giveUp(_ reason: PreparationError.Reason) {
    let (task, onGiveUp) = lock.withLock { (self.task, self.onGiveUp) }
    onGiveUp?(self)
    if settle(.failure(PreparationError(path: [key.name], reason: reason))) {
      task?.cancel()
    }
  }

  /// Cancels the builder; the build still settles when the builder returns.
  func cancel() {
    lock.withLock { task }?.cancel()
  }

  /// Calls `observer` when the build settles; returns the observation's number, or the
  /// outcome at once (not calling `observer`) if the build already settled.
  func observe(_ observer: @escaping Observer) -> (
    id: UInt64?, ready: Result<BuiltValue, any Error>?
  ) {
    lock.withLock {
      if let result { return (nil, result.mapError { $0 }) }
      nextObserver += 1
      observers[nextObserver] = observer
      return (nextObserver, nil)
    }
  }

  /// Stops an observation; returns its observer if it had not been called. When nobody
  /// observes the build any more, its builder is cancelled.
  @discardableResult
  func stopObserving(_ id: UInt64) -> Observer? {
    let (observer, abandon) = lock.withLock { () -> (Observer?, Bool) in
      guard result == nil, let observer = observers.removeValue(forKey: id) else {
        return (nil, false)
      }
      if observers.isEmpty { abandoned = true }
      return (observer, observers.isEmpty)
    }
    // The builder ends as it can; its outcome settles the build (a value it still makes is
    // kept, since the container can shut it down), so a shutdown waiting for it sees it.
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
///
/// `@unchecked Sendable`: `state` is guarded by `lock`.
final class ObservationSlot: @unchecked Sendable {
  private let lock = Lock()
  private var id: UInt64?
  private var cancelled = false

  /// Records the observation; false if the task was already cancelled.
  func register(_ id: UInt64) -> Bool {
    lock.withLock {
      self.id = id
      return !cancelled
    }
  }

  /// Marks the task cancelled; returns the observation to stop, if there is one yet.
  func cancel() -> UInt64? {
    lock.withLock {
      cancelled = true
      return id
    }
  }
}

/// Runs `body`; if it is still running after `seconds`, calls `onTimeout` (once) from another
/// task, which must make `body` end.
func withWatchdog<R>(
  seconds: Double,
  onTimeout: @escaping @Sendable () -> Void,
  _ body: () async throws -> R
) async rethrows -> R {
  let nanoseconds = UInt64(max(0, min(seconds, 1e9)) * 1e9)
  let watchdog = Task {
    do { try await Task.sleep(nanoseconds: nanoseconds) } catch { return }
    onTimeout()
  }
  defer { watchdog.cancel() }
  return try await body()
}

/// Which build each async builder awaits, guarded by one lock so that two builds that start
/// awaiting each other at the same moment cannot both miss the cycle.
enum AwaitingBuilds {
  private static let lock = Lock()

  /// Notes that `waiter` awaits `target`; returns the loop that closes, outermost first and
  /// ending with `waiter` again, if `target` (through the builds it awaits) awaits `waiter`.
  static func begin(_ waiter: PendingBuild, awaiting target: PendingBuild) -> [PendingBuild]? {
    lock.withLock {
      // Every loop is found when it closes, so the chain from `target` ends or reaches `waiter`.
      var node: PendingBuild? = target
      while let current = node, current !== waiter { node = current.awaiting }
      guard node != nil else {
        waiter.awaiting = target
        return nil
      }
      var loop = [waiter]
      node = target
      while let current = node, current !== waiter {
        loop.append(current)
        node = current.awaiting
      }
      // From the build made first, which is where the prepare that closed the loop began.
      let first = loop.indices.min { loop[$0].serial < loop[$1].serial }!
      let rotated = Array(loop[first...] + loop[..<first])
      return rotated + [rotated[0]]
    }
  }

  /// The build at the end of the chain `start` awaits: the one that keeps it waiting.
  static func deepest(from start: PendingBuild) -> PendingBuild {
    lock.withLock {
      var node = start
      while let next = node.awaiting { node = next }
      return node
    }
  }

  /// Notes that `waiter` awaits nothing any more.
  static func end(_ waiter: PendingBuild) {
    lock.withLock { waiter.awaiting = nil }
  }

  /// The builds awaiting, directly or through others, `target`, from the outermost down.
  static func chain(to target: PendingBuild, from start: PendingBuild) -> [PendingBuild]? {
    lock.withLock {
      var path: [PendingBuild] = []
      var node: PendingBuild? = start
      while let current = node {
        path.append(current)
        if current === target { return path }
        node = current.awaiting
      }
      return nil
    }
  }
}

/// A counter shared by threads.
///
/// `@unchecked Sendable`: `count` is guarded by `lock`.
final class Counter: @unchecked Sendable {
  private let lock = Lock()
  private var count: UInt64 = 0

  func next() -> UInt64 {
    lock.withLock {
      count += 1
      return count
    }
  }
}

extension KeyType {
  /// The key's short name, for messages.
  var name: String { _typeName(type, qualified: false) }
}

/// Waits in one task for several builds: until all settled, or one failed.
///
/// `@unchecked Sendable`: the mutable state is guarded by `lock`.
final class BuildJoin: @unchecked Sendable {
  private let lock = Lock()
  private var remaining = 0
  private var continuation: CheckedContinuation<Void, any Error>?
  private var outcome: Result<Void, any Error>?
  private var observations: [(build: PendingBuild, id: UInt64)] = []

  /// Returns when every build in `builds` has a value; throws the first failure (then stops
  /// observing the rest, so builds nobody else waits for are cancelled), or a
  /// `CancellationError` when the calling task is cancelled.
  func wait(for builds: [PendingBuild]) async throws {
    guard !builds.isEmpty else { return }
    lock.withLock { remaining = builds.count }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let early = lock.withLock { () -> Result<Void, any Error>? in
          if let outcome { return outcome }
          self.continuation = continuation
          return nil
        }
        if let early { return continuation.resume(with: early) }
        for build in builds {
          let (id, ready) = build.observe { [self] in self.settled($0) }
          if let ready { settled(ready) }
          guard let id else { continue }
          let finished = lock.withLock { () -> Bool in
            if outcome != nil { return true }
            observations.append((build, id))
            return false
          }
          if finished { build.stopObserving(id) }
        }
      }
    } onCancel: {
      finish(.failure(CancellationError()))
    }
  }

  private func settled(_ result: Result<BuiltValue, any Error>) {
    switch result {
    case .failure(let error):
      finish(.failure(error))
    case .success:
      let done = lock.withLock { () -> Bool in
        remaining -= 1
        return remaining == 0
      }
      if done { finish(.success(())) }
    }
  }

  private func finish(_ result: Result<Void, any Error>) {
    let (continuation, observations) = lock.withLock {
      () -> (CheckedContinuation<Void, any Error>?, [(build: PendingBuild, id: UInt64)]) in
      guard outcome == nil else { return (nil, []) }
      outcome = result
      defer {
        self.continuation = nil
        self.observations = []
      }
      return (self.continuation, self.observations)
    }
    if case .failure = result {
      for observation in observations { observation.build.stopObserving(observation.id) }
    }
    continuation?.resume(with: result)
  }
}
