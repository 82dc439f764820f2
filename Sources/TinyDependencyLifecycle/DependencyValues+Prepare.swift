public import TinyDependency

/// Thrown by the deadline of a prepare in a builder.
private struct DeadlinePassed: Error {}

extension DependencyValues {
  /// How many seconds ``prepare(_:timeout:)`` waits for its builds by default.
  public static let defaultPreparationTimeout = 30.0

  /// Builds the values of async keys, and of the async keys they await, in this container.
  ///
  /// Each key is built once per container, in dependency order: a key whose builder awaits
  /// another (with ``prepared(_:)``) starts after it, and keys that don't depend on each other
  /// are built concurrently, in a task group; no thread is blocked while a build waits. Keys
  /// already prepared here, or in a container this one derives from (unless this one overrides
  /// a key they read), are not built again; concurrent prepares of the same key share one build.
  ///
  /// ```swift
  /// @main struct Server {
  ///   static func main() async throws {
  ///     try await DependencyValues.current.prepare([PoolKey.self, UserServiceKey.self])
  ///     // … serve, reading the prepared values synchronously …
  ///     try await DependencyValues.current.shutdown()
  ///   }
  /// }
  /// ```
  ///
  /// The values are stored in this container, which is shared by its copies and by the scopes
  /// made from it afterwards; they are not offered to the containers it derives from. In a
  /// `withDependencies` scope, `DependencyValues.current.prepare(…)` prepares in that scope;
  /// ``withPreparedDependencies(_:timeout:isolation:_:operation:)`` also shuts its values down
  /// when it ends.
  ///
  /// - Parameters:
  ///   - keys: The async keys to prepare.
  ///   - timeout: How many seconds this call waits. When they pass, the build that keeps it
  ///     waiting (one at the end of the chains of builds awaiting each other) is cancelled
  ///     and fails with ``PreparationError/Reason/timedOut(seconds:)``; a value it still makes
  ///     later is shut down, not kept.
  /// - Throws: A ``PreparationError`` with the path to the key that failed, after cancelling
  ///   the builds still running for this call; a `CancellationError` when the calling task was
  ///   cancelled. A failure is not kept: preparing again builds again.
  public func prepare(
    _ keys: [any AsyncDependencyKey.Type],
    timeout: Double = DependencyValues.defaultPreparationTimeout
  ) async throws {
    try await prepare(keys.map(AsyncKeyType.init), timeout: timeout)
  }

  func prepare(_ keys: [AsyncKeyType], timeout: Double) async throws {
    for key in keys { stopUnlessShared(key.type) }
    if PendingBuild.current != nil {
      try await prepareInBuilder(keys, timeout: timeout)
      return
    }
    // A caller cancelled before it asks starts nothing: there would be nobody to await it.
    try Task.checkCancellation()
    let lifecycle = Lifecycle.of(self)
    var pending: [PendingBuild] = []
    var stale: [PendingBuild] = []
    var again: [AsyncKeyType] = []
    var seen: Set<ObjectIdentifier> = []
    for key in keys where seen.insert(key.id).inserted && overriddenValue(of: key.type) == nil {
      guard case .pending(let build, let isNew) = try find(key, in: lifecycle, timeout: timeout)
      else { continue }
      if isNew {
        startBuild(build, in: lifecycle)
      } else if build.isAbandoned {
        stale.append(build)
        again.append(key)
        continue
      }
      pending.append(build)
    }
    let waited = pending + stale
    guard !waited.isEmpty else { return }
    let join = BuildJoin()
    let (joined, ended) = (pending, stale)
    try await withWatchdog(
      seconds: timeout,
      onTimeout: {
        // The timeout is this caller's: it stops waiting, naming the build that kept it
        // waiting; a build that someone else still awaits goes on for them.
        if !joined.isEmpty { join.fail(Self.timedOut(waiting: joined, seconds: timeout)) }
        for build in ended {
          AwaitingBuilds.deepest(from: build).giveUp(.timedOut(seconds: timeout))
        }
      }
    ) {
      try await join.wait(for: pending)
      // Builds that everyone else gave up on: let them end, then prepare their keys again.
      for build in stale { _ = try? await build.value() }
    }
    if !again.isEmpty {
      try Task.checkCancellation()
      try await prepare(again, timeout: timeout)
    }
  }

  /// In a builder: each key through `prepared`, which looks for cycles, until `timeout`
  /// passes; the prepare that started this build still has its own deadline.
  private func prepareInBuilder(_ keys: [AsyncKeyType], timeout: Double) async throws {
    let finished = Locked<Set<ObjectIdentifier>>([])
    do {
      try await withThrowingTaskGroup(of: Void.self) { group in
        for key in keys {
          // A child task the library makes for the builder: its waits are the builder's.
          group.addTask { [attributed = PendingBuild.awaiting != nil] in
            if attributed {
              _ = try await PendingBuild.attributed { try await self.preparedInBuilder(key) }
            } else {
              _ = try await self.preparedInBuilder(key)
            }
            _ = finished.withLock { $0.insert(key.id) }
          }
        }
        group.addTask {
          try await Deadlines.shared.wait(seconds: timeout)
          throw DeadlinePassed()
        }
        // Not `waitForAll()`, which waits for every task before it throws: the first failure
        // leaves the group at once, which cancels the others.
        for _ in keys { try await group.next() }
        group.cancelAll()
      }
    } catch is DeadlinePassed {
      let waiting = keys.first { key in !finished.withLock { $0.contains(key.id) } } ?? keys[0]
      let lifecycle = Lifecycle.of(self)
      guard let build = lifecycle.inFlightBuild(for: waiting.id) else {
        throw PreparationError(path: [waiting.name], reason: .timedOut(seconds: timeout))
      }
      throw Self.timedOut(waiting: [build], seconds: timeout)
    }
  }

  /// The failure of a caller whose `seconds` passed while it waited for `builds`: the path from
  /// the first unfinished one to the build at the end of its chain of awaits.
  static func timedOut(waiting builds: [PendingBuild], seconds: Double) -> PreparationError {
    let start = builds.first { !$0.isSettled } ?? builds.first!
    let end = AwaitingBuilds.deepest(from: start)
    let chain = AwaitingBuilds.chain(to: end, from: start) ?? [start]
    return PreparationError(path: chain.map(\.key.name), reason: .timedOut(seconds: seconds))
  }

  /// The value of `key` here, or its build in flight (joined or started); a build started
  /// keeps `timeout`, or in a builder the timeout of the build running there.
  func find(
    _ key: AsyncKeyType,
    in lifecycle: Lifecycle,
    timeout: Double? = nil
  ) throws -> Lifecycle.Found {
    do {
      return try lifecycle.build(
        for: key.id,
        existing: { existingValue(of: key.type) },
        start: {
          PendingBuild(
            key: key,
            record: BuildFrame(key: key.type, in: self),
            startedBy: PendingBuild.awaiting,
            timeout: timeout ?? PendingBuild.current?.timeout ?? Self.defaultPreparationTimeout
          )
        }
      )
    } catch {
      throw PreparationError(path: [key.name], reason: .shutDown)
    }
  }

  /// The value of an async key, prepared first if it was not: for the builder of another
  /// async key, which then starts after this one.
  ///
  /// ```swift
  /// enum UserServiceKey: AsyncDependencyKey {
  ///   static func makeDefault() async throws -> UserService {
  ///     UserService(pool: try await DependencyValues.current.prepared(PoolKey.self))
  ///   }
  /// }
  /// ```
  ///
  /// Called in a builder, the read is recorded as an edge of the graph, and a builder that
  /// awaits, directly or through others, its own key stops with the cycle's path. Synchronous
  /// keys are read in builders as anywhere else, with ``/TinyDependency/DependencyValues/subscript(_:)-8jjt9``.
  ///
  /// - Parameter key: The async key.
  /// - Returns: Its value in this container.
  /// - Throws: A ``PreparationError`` when its build fails; a `CancellationError` when the
  ///   calling task is cancelled while it waits.
  public func prepared<Key: AsyncDependencyKey>(_ key: Key.Type) async throws -> Key.Value {
    if PendingBuild.current != nil {
      return try await preparedInBuilder(AsyncKeyType(key)).value(as: Key.Value.self)
    }
    if let value = overriddenValue(of: key) { return value.value(as: Key.Value.self) }
    try await prepare([AsyncKeyType(key)], timeout: Self.defaultPreparationTimeout)
    if let value = overriddenValue(of: key) ?? existingValue(of: key) {
      return value.value(as: Key.Value.self)
    }
    throw PreparationError(path: [Key.keyName], reason: .shutDown)
  }

  /// The async keys among `keys` that have no value in this container: neither set on it nor
  /// prepared (here, or in a container it derives from).
  ///
  /// Nothing is built, so an app or a test can check before it serves:
  ///
  /// ```swift
  /// let missing = values.unpreparedKeys(among: [PoolKey.self, UserServiceKey.self])
  /// precondition(missing.isEmpty, "prepare \(missing) first")
  /// ```
  ///
  /// - Parameter keys: The keys to check; keys that are not async are never listed.
  /// - Returns: The unprepared async keys, in the order given.
  public func unpreparedKeys(among keys: [any DependencyKey.Type]) -> [any DependencyKey.Type] {
    keys.filter { key in
      key is any AsyncDependencyKey.Type && overriddenValue(of: key) == nil
        && existingValue(of: key) == nil
    }
  }
}
