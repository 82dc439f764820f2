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
