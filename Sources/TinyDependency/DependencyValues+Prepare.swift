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
    try await prepare(keys.map(KeyType.init), timeout: timeout)
  }

  func prepare(_ keys: [KeyType], timeout: Double) async throws {
    if PendingBuild.current != nil {
      // In a builder: each key through `prepared`, which looks for cycles. The prepare that
      // started this build keeps the deadline.
      try await withThrowingTaskGroup(of: Void.self) { group in
        for key in keys {
          group.addTask { _ = try await self.preparedInBuilder(key) }
        }
        // Not `waitForAll()`, which waits for every task before it throws: the first failure
        // leaves the group at once, which cancels the others.
        while try await group.next() != nil {}
      }
      return
    }
    let lifecycle = Lifecycle.of(storage)
    var pending: [PendingBuild] = []
    var stale: [PendingBuild] = []
    var again: [KeyType] = []
    var seen: Set<ObjectIdentifier> = []
    for key in keys where seen.insert(key.id).inserted && storage.overrides[key.id] == nil {
      guard case .pending(let build, let isNew) = try find(key, in: lifecycle) else { continue }
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
    try await withWatchdog(
      seconds: timeout,
      onTimeout: {
        for build in waited {
          AwaitingBuilds.deepest(from: build).giveUp(.timedOut(seconds: timeout))
        }
      }
    ) {
      try await BuildJoin().wait(for: pending)
      // Builds that everyone else gave up on: let them end, then prepare their keys again.
      for build in stale { _ = try? await build.value() }
    }
    if !again.isEmpty {
      try Task.checkCancellation()
      try await prepare(again, timeout: timeout)
    }
  }

  /// The value of `key` here, or its build in flight (joined or started).
  private func find(_ key: KeyType, in lifecycle: Lifecycle) throws -> Lifecycle.Found {
    let storage = self.storage
    do {
      return try lifecycle.build(
        for: key.id,
        existing: { storage.existingBuiltValue(for: key.id) },
        start: {
          PendingBuild(
            key: key,
            frame: BuildFrame(
              keyType: key.type,
              context: storage.context,
              parent: nil,
              recorder: storage.recorder
            )
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
  /// keys are read in builders as anywhere else, with ``subscript(_:)-8jjt9``.
  ///
  /// - Parameter key: The async key.
  /// - Returns: Its value in this container.
  /// - Throws: A ``PreparationError`` when its build fails; a `CancellationError` when the
  ///   calling task is cancelled while it waits.
  public func prepared<Key: AsyncDependencyKey>(_ key: Key.Type) async throws -> Key.Value {
    let id = ObjectIdentifier(key)
    if PendingBuild.current != nil {
      return try await preparedInBuilder(KeyType(key)).box.unbox(as: Key.Value.self)
    }
    if let box = storage.overrides[id] { return box.unbox(as: Key.Value.self) }
    try await prepare([KeyType(key)], timeout: Self.defaultPreparationTimeout)
    if let box = storage.overrides[id] ?? storage.existingBuiltValue(for: id)?.box {
      return box.unbox(as: Key.Value.self)
    }
    throw PreparationError(path: [Key.debugName], reason: .shutDown)
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
      let id = ObjectIdentifier(key)
      return key is any AsyncDependencyKey.Type && storage.overrides[id] == nil
        && storage.existingBuiltValue(for: id) == nil
    }
  }

  // MARK: - Building

  /// The value of `key` for the builder running in this task, which the read becomes an edge
  /// of; the build is awaited after checking that it does not await the builder back.
  private func preparedInBuilder(_ key: KeyType) async throws -> BuiltValue {
    if let box = storage.overrides[key.id] {
      frame?.record(key.type, inputs: [])
      return BuiltValue(box: box, inputs: [], key: key, reads: [])
    }
    let lifecycle = Lifecycle.of(storage)
    while true {
      let built: BuiltValue
      switch try find(key, in: lifecycle) {
      case .built(let existing):
        built = existing
      case .pending(let pending, let isNew):
        if !isNew && pending.isAbandoned {
          // Everyone who wanted it gave up: let it end, then look again.
          _ = try? await pending.value()
          try Task.checkCancellation()
          continue
        }
        built = try await awaitBuild(pending, starting: isNew ? lifecycle : nil)
      }
      frame?.record(key.type, inputs: built.inputs)
      return built
    }
  }

  /// Waits for `pending`, first checking that the build this task runs is not awaited by it,
  /// directly or through other builds: that wait could never end. A new build is started in
  /// `lifecycle` only once this task is noted as awaiting it, so that a read of this task's own
  /// key, anywhere in that build, finds the loop from its first instruction on.
  private func awaitBuild(
    _ pending: PendingBuild,
    starting lifecycle: Lifecycle?
  ) async throws -> BuiltValue {
    guard let waiter = PendingBuild.current else {
      if let lifecycle { startBuild(pending, in: lifecycle) }
      return try await pending.value()
    }
    if let loop = AwaitingBuilds.begin(waiter, awaiting: pending) {
      Diagnostics.stopWithCycle(
        loop.dropLast().map(\.frame),
        reentering: [loop[0].key.type],
        recorder: nil
      )
    }
    defer { AwaitingBuilds.end(waiter, awaiting: pending) }
    if let lifecycle { startBuild(pending, in: lifecycle) }
    return try await pending.value()
  }

  /// Runs the builder of `pending`'s key in a task of its own, with this container bound.
  private func startBuild(_ pending: PendingBuild, in lifecycle: Lifecycle) {
    var scoped = self
    scoped.frame = pending.frame
    let bound = scoped
    pending.start(onGiveUp: { lifecycle.remove($0) }) {
      let key = pending.key.type as! any AsyncDependencyKey.Type
      await Self.runBuild(
        of: key,
        pending,
        in: bound,
        lifecycle: lifecycle
      )
    }
  }

  /// Builds `Key`'s value for `pending` with `values` bound, then stores it and wakes the
  /// waiters; a value nobody can take any more is shut down.
  private static func runBuild<Key: AsyncDependencyKey>(
    of key: Key.Type,
    _ pending: PendingBuild,
    in values: DependencyValues,
    lifecycle: Lifecycle
  ) async {
    let storage = values.storage
    let context = storage.context
    let outcome: Result<Key.Value, any Error>
    do {
      outcome = .success(
        try await DependencyValues.boundLocal.withValue(values) {
          try await Key.make(for: context)
        }
      )
    } catch {
      outcome = .failure(error)
    }
    let trace = pending.frame.finish()
    switch outcome {
    case .failure(let error):
      lifecycle.remove(pending)
      pending.settle(.failure(.wrapping(error, from: pending.key)))
    case .success(let value):
      if trace.fellBack { reportAsyncFallback(of: Key.self, in: storage) }
      let built = BuiltValue(
        box: Box(value),
        inputs: trace.inputs,
        key: pending.key,
        reads: trace.reads,
        hold: trace.hold
      )
      let open = lifecycle.isOpen
      if !pending.isSettled && open && storage.storePrepared(ObjectIdentifier(Key.self), built) {
        lifecycle.remove(pending)
        pending.settle(.success(built))
        return
      }
      // Timed out, abandoned or shut down meanwhile: the value is nobody's, so it is shut
      // down here rather than leaked, before the build settles (a container's shutdown waits
      // for that, so this value goes before the values it read).
      if let disposable = value as? any DependencyShutdown {
        try? await disposable.shutdown()
      }
      lifecycle.remove(pending)
      pending.settle(
        .failure(PreparationError(path: [pending.key.name], reason: open ? .cancelled : .shutDown))
      )
    }
  }
}

/// In strict mode, reports that a test prepared an async key with its live `makeDefault()`.
private func reportAsyncFallback<Key: AsyncDependencyKey>(
  of key: Key.Type,
  in storage: DependencyStorage
) {
  guard storage.reportsLiveFallbacks, storage.context == .test else { return }
  let name = Key.debugName
  IssueReporter.report(
    "\(name) has no makeTest() of its own, so a test prepared it with its live makeDefault(). "
      + "Declare `static func makeTest()` on \(name), or override it for the test with "
      + "`.dependency(…)` or `withDependencies`."
  )
}
