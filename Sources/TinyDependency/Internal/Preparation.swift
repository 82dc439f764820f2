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

/// One build of an async key's value in one container, awaited by everyone who needs it.
///
/// The build runs in a task of its own, so that concurrent prepares of the same key share it:
/// it is cancelled when every task awaiting it was, and it fails when its deadline passes.
///
/// `@unchecked Sendable`: the mutable state is guarded by `lock`; `awaiting` by
/// ``AwaitingBuilds``.
final class PendingBuild: @unchecked Sendable {
  let key: KeyType
  let frame: BuildFrame
  /// Seconds the build may take before it fails.
  let timeout: Double
  /// Orders builds by when they were made, so a cycle is reported from the one made first.
  let serial = PendingBuild.serials.next()
  private static let serials = Counter()

  private let lock = Lock()
  private var result: Result<BuiltValue, PreparationError>?
  private var waiters: [UInt64: CheckedContinuation<BuiltValue, any Error>] = [:]
  private var cancelledWaiters: Set<UInt64> = []
  private var nextWaiter: UInt64 = 0
  private var task: Task<Void, Never>?
  private var watchdog: Task<Void, Never>?
  /// Called when the build is given up before it finished (timed out).
  private var onAbandon: (@Sendable () -> Void)?
  private var abandoned = false

  /// The build whose value this one's builder awaits right now, if any; for finding cycles.
  var awaiting: PendingBuild?

  /// The build whose builder runs in the current task, if any.
  @TaskLocal static var current: PendingBuild?

  init(key: KeyType, frame: BuildFrame, timeout: Double) {
    self.key = key
    self.frame = frame
    self.timeout = timeout
  }

  /// Starts `body` in a task of its own, and a watchdog that fails the build after `timeout`.
  func start(
    onAbandon: @escaping @Sendable () -> Void,
    _ body: @escaping @Sendable () async -> Void
  ) {
    let nanoseconds = UInt64(max(0, min(timeout, 1e9)) * 1e9)
    lock.withLock {
      self.onAbandon = onAbandon
      task = Task { await PendingBuild.$current.withValue(self) { await body() } }
      watchdog = Task { [weak self] in
        do { try await Task.sleep(nanoseconds: nanoseconds) } catch { return }
        self?.giveUp(.timedOut(seconds: self?.timeout ?? 0))
      }
    }
  }

  /// Whether the build has an outcome, so a late value must be disposed of by its builder.
  var isSettled: Bool { lock.withLock { result != nil } }

  /// Whether every task that awaited the build was cancelled, so its builder was too: a new
  /// caller waits for it to end, then builds again if it has to.
  var isAbandoned: Bool { lock.withLock { abandoned } }

  /// Ends the build with `outcome` and wakes its waiters; returns false if it had already ended
  /// (it timed out or was abandoned), in which case nothing changes.
  @discardableResult
  func settle(_ outcome: Result<BuiltValue, PreparationError>) -> Bool {
    let (settled, woken, watchdog) = lock.withLock {
      () -> (Bool, [CheckedContinuation<BuiltValue, any Error>], Task<Void, Never>?) in
      guard result == nil else { return (false, [], nil) }
      result = outcome
      let woken = Array(waiters.values)
      waiters = [:]
      return (true, woken, self.watchdog)
    }
    guard settled else { return false }
    watchdog?.cancel()
    for waiter in woken { waiter.resume(with: outcome.mapError { $0 }) }
    return true
  }

  /// Fails the build before its builder finished, and cancels the builder.
  func giveUp(_ reason: PreparationError.Reason) {
    let (task, abandon) = lock.withLock { (self.task, onAbandon) }
    abandon?()
    if settle(.failure(PreparationError(path: [key.name], reason: reason))) {
      task?.cancel()
    }
  }

  /// Cancels the builder; the build still settles when it returns or times out.
  func cancel() {
    lock.withLock { task }?.cancel()
  }

  /// Waits for the build's value. If the waiting task is cancelled, it stops waiting with a
  /// `CancellationError`, and the builder is cancelled when nobody waits for it any more.
  func value() async throws -> BuiltValue {
    let id = lock.withLock {
      nextWaiter += 1
      return nextWaiter
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let ready = lock.withLock { () -> Result<BuiltValue, any Error>? in
          if let result { return result.mapError { $0 } }
          if cancelledWaiters.remove(id) != nil { return .failure(CancellationError()) }
          waiters[id] = continuation
          return nil
        }
        if let ready { continuation.resume(with: ready) }
      }
    } onCancel: {
      let (waiter, abandoned) = lock.withLock {
        () -> (CheckedContinuation<BuiltValue, any Error>?, Bool) in
        guard result == nil else { return (nil, false) }
        guard let waiter = waiters.removeValue(forKey: id) else {
          cancelledWaiters.insert(id)
          return (nil, false)
        }
        if waiters.isEmpty { self.abandoned = true }
        return (waiter, waiters.isEmpty)
      }
      waiter?.resume(throwing: CancellationError())
      // The builder ends as it can; its outcome settles the build (a value it still makes is
      // kept, since the container can shut it down), so a shutdown waiting for it sees it.
      if abandoned { cancel() }
    }
  }
}

/// Which build each async builder awaits, guarded by one lock so that two builds that start
/// awaiting each other at the same moment cannot both miss the cycle.
enum AwaitingBuilds {
  private static let lock = Lock()

  /// Notes that `waiter` awaits `target`; returns the loop that closes, outermost first and
  /// ending with `waiter` again, if `target` (through the builds it awaits) awaits `waiter`.
  static func begin(_ waiter: PendingBuild, awaiting target: PendingBuild) -> [PendingBuild]? {
    lock.withLock {
      var path = [waiter]
      var node: PendingBuild? = target
      var seen: Set<ObjectIdentifier> = []
      while let current = node, seen.insert(ObjectIdentifier(current)).inserted {
        path.append(current)
        if current === waiter {
          // From the build made first, which is where the prepare that closed the loop began.
          let loop = path.dropLast()
          let first = loop.indices.min { loop[$0].serial < loop[$1].serial }!
          let rotated = Array(loop[first...] + loop[..<first])
          return rotated + [rotated[0]]
        }
        node = current.awaiting
      }
      waiter.awaiting = target
      return nil
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
      var seen: Set<ObjectIdentifier> = []
      while let current = node, seen.insert(ObjectIdentifier(current)).inserted {
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

/// A flag set once, read with a lock.
///
/// `@unchecked Sendable`: `stored` is guarded by `lock`.
final class LockedFlag: @unchecked Sendable {
  private let lock = Lock()
  private var stored = false

  var value: Bool {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}

extension KeyType {
  /// The key's short name, for messages.
  var name: String { _typeName(type, qualified: false) }
}
