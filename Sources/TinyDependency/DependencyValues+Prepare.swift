extension DependencyValues {
  /// How long one build of an async key, including the builds it awaits, may take by default.
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
  ///   - timeout: How many seconds each build (including the builds it awaits) may take before
  ///     it is cancelled and fails with ``PreparationError/Reason/timedOut(seconds:)``.
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
    do {
      try await withThrowingTaskGroup(of: Void.self) { group in
        for key in keys {
          group.addTask { try await self.prepare(key, timeout: timeout) }
        }
        // Not `waitForAll()`, which waits for every task before it throws: the first failure
        // leaves the group at once, which cancels the builds still running for this call.
        while try await group.next() != nil {}
      }
    } catch {
      if Task.isCancelled { throw CancellationError() }
      throw error
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
  /// keys are read in builders as anywhere else, with ``subscript(_:)``.
  ///
  /// - Parameter key: The async key.
  /// - Returns: Its value in this container.
  /// - Throws: A ``PreparationError`` when its build fails; a `CancellationError` when the
  ///   calling task is cancelled while it waits.
  public func prepared<Key: AsyncDependencyKey>(_ key: Key.Type) async throws -> Key.Value {
    try await prepared(
      key,
      timeout: PendingBuild.current?.timeout ?? Self.defaultPreparationTimeout
    )
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

  private func prepare(_ key: KeyType, timeout: Double) async throws {
    let asyncKey = key.type as! any AsyncDependencyKey.Type
    try await prepareOpened(asyncKey, timeout: timeout)
  }

  private func prepareOpened<Key: AsyncDependencyKey>(
    _ key: Key.Type,
    timeout: Double
  ) async throws {
    _ = try await prepared(key, timeout: timeout)
  }

  func prepared<Key: AsyncDependencyKey>(
    _ key: Key.Type,
    timeout: Double
  ) async throws -> Key.Value {
    let id = ObjectIdentifier(key)
    if let box = storage.overrides[id] {
      frame?.record(Key.self, inputs: [])
      return box.unbox(as: Key.Value.self)
    }
    if let built = storage.existingBuiltValue(for: id) {
      frame?.record(Key.self, inputs: built.inputs)
      return built.box.unbox(as: Key.Value.self)
    }
    let lifecycle = Lifecycle.of(storage)
    let storage = self.storage
    while true {
      let found: Lifecycle.Found
      do {
        found = try lifecycle.build(
          for: id,
          existing: { storage.existingBuiltValue(for: id) },
          start: {
            PendingBuild(
              key: KeyType(Key.self),
              frame: BuildFrame(
                keyType: Key.self,
                context: storage.context,
                parent: nil,
                recorder: storage.recorder
              ),
              timeout: timeout
            )
          }
        )
      } catch {
        throw PreparationError(path: [Key.debugName], reason: .shutDown)
      }
      switch found {
      case .built(let built):
        frame?.record(Key.self, inputs: built.inputs)
        return built.box.unbox(as: Key.Value.self)
      case .pending(let pending, let isNew):
        if isNew {
          startBuild(pending, in: lifecycle)
        } else if pending.isAbandoned {
          // Everyone who wanted it gave up: let it end, then look again.
          _ = try? await pending.value()
          try Task.checkCancellation()
          continue
        }
        let built = try await awaitBuild(pending)
        frame?.record(Key.self, inputs: built.inputs)
        return built.box.unbox(as: Key.Value.self)
      }
    }
  }
  /// Waits for `pending`, first checking that the build this task runs (if any) is not
  /// awaited by it, directly or through other builds: that wait could never end.
  private func awaitBuild(_ pending: PendingBuild) async throws -> BuiltValue {
    guard let waiter = PendingBuild.current else { return try await pending.value() }
    if let loop = AwaitingBuilds.begin(waiter, awaiting: pending) {
      reportCycle(
        loop.dropLast().map(\.frame),
        reentering: [loop[0].key.type],
        recorder: nil
      )
    }
    defer { AwaitingBuilds.end(waiter) }
    return try await pending.value()
  }

  /// Runs the builder of `pending`'s key in a task of its own, with this container bound.
  private func startBuild(_ pending: PendingBuild, in lifecycle: Lifecycle) {
    var scoped = self
    scoped.frame = pending.frame
    let bound = scoped
    pending.start(onAbandon: { lifecycle.remove(pending) }) {
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
        try await DependencyValues.$bound.withValue(values) {
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
        reads: trace.reads.map(KeyType.init),
        capturesScope: pending.frame.capturedScope
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
