import TinyDependency

/// How `prepare` and `prepared` build an async key: in a task of its own, with the container
/// bound, each await noted first so that a cycle through async builds stops with its path.
extension DependencyValues {
  /// The value of `key` for the builder running in this task, which the read becomes an edge
  /// of; the build is awaited after checking that it does not await the builder back.
  func preparedInBuilder(_ key: AsyncKeyType) async throws -> BuiltValue {
    if let value = overriddenValue(of: key.type) {
      frame?.record(key.type, inputs: [])
      return value
    }
    let lifecycle = Lifecycle.of(self)
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
    // Only the builder's own waits are edges: a task it started and does not await is not
    // waited for by the build, so a wait there can't close a loop through it.
    guard let waiter = PendingBuild.awaiting else {
      if let lifecycle { startBuild(pending, in: lifecycle) }
      return try await pending.value()
    }
    // A new build of a key that a build up the chain that started this one builds (in another
    // scope, so another build): it would start the same chain again, without end.
    if lifecycle != nil,
      let chain = waiter.chainReentering(pending.key, context: pending.record.context)
    {
      stopWithCycle(chain.map(\.record), reentering: pending.key.type)
    }
    if let loop = AwaitingBuilds.begin(waiter, awaiting: pending) {
      stopWithCycle(loop.dropLast().map(\.record), reentering: loop[0].key.type)
    }
    defer { AwaitingBuilds.end(waiter, awaiting: pending) }
    if let lifecycle { startBuild(pending, in: lifecycle) }
    return try await pending.value()
  }

  /// Runs the builder of `pending`'s key in a task of its own, with this container bound.
  func startBuild(_ pending: PendingBuild, in lifecycle: Lifecycle) {
    let bound = recording(in: pending.record)
    pending.start(onGiveUp: { lifecycle.remove($0) }) {
      let key = pending.key.type
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
    let context = values.context
    let outcome: Result<Key.Value, any Error>
    do {
      outcome = .success(try await values.withBound { try await Key.make(for: context) })
    } catch {
      outcome = .failure(error)
    }
    let trace = pending.record.finish()
    switch outcome {
    case .failure(let error):
      lifecycle.remove(pending)
      pending.settle(.failure(.wrapping(error, from: pending.key)))
    case .success(let value):
      if trace.fellBack { reportAsyncFallback(of: Key.self, in: values) }
      let built = BuiltValue(value, of: Key.self, trace: trace)
      let open = lifecycle.isOpen
      // A build everyone stopped awaiting is not kept: nobody asked for it any more.
      if !pending.isSettled && !pending.isAbandoned && open && values.storePrepared(built) {
        lifecycle.remove(pending)
        pending.settle(.success(built))
        return
      }
      // Abandoned or shut down meanwhile: the value is nobody's, so it is shut
      // down here rather than leaked, before the build settles (a container's shutdown waits
      // for that, so this value goes before the values it read).
      if let disposable = value as? any DependencyShutdown {
        // One the shutdown still waits for (not given up) goes in its report.
        if !open && !pending.isAbandoned { lifecycle.noteShutDownOnArrival(pending.key.name) }
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
  in values: DependencyValues
) {
  guard values.reportsLiveFallbacks, values.context == .test else { return }
  let name = Key.keyName
  IssueReporter.report(
    "\(name) has no makeTest() of its own, so a test prepared it with its live makeDefault(). "
      + "Declare `static func makeTest()` on \(name), or override it for the test with "
      + "`.dependency(…)` or `withDependencies`."
  )
}
