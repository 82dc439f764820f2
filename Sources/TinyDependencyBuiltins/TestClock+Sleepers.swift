import TinyDependency

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension TestClock {
  /// A sleep waiting for the clock to reach its deadline.
  struct Sleeper {
    let id: UInt64
    let deadline: Instant
    /// The sleeping task's identity, to recognize its next sleep.
    let task: Int
    let continuation: CheckedContinuation<Void, any Error>
  }

  /// The clock's time, its sleepers and the calls of its own methods waiting on them.
  struct State {
    var now: Instant
    var nextID: UInt64 = 0
    var sleepers: [Sleeper] = []
    /// Sleeps resumed by `advance` whose call has not yet returned in the sleeping task.
    var waking: Set<UInt64> = []
    /// Sleeps cancelled before they were registered.
    var cancelledEarly: Set<UInt64> = []
    /// How many sleeps have started, to see when tasks stop starting them.
    var registrations: UInt64 = 0
    /// Calls of the clock's own methods waiting for something to happen, by token.
    var waiters: [UInt64: Waiter] = [:]
    var nextToken: UInt64 = 0

    func isSatisfied(_ condition: Condition) -> Bool {
      switch condition {
      case .woke(let id): !waking.contains(id)
      case .sleptAgain(let task, let id): sleepers.contains { $0.task == task && $0.id > id }
      case .registration(let count): registrations > count
      case .sleepers(let count): sleepers.count >= count
      }
    }

    /// Removes and returns the waiters whose conditions now hold.
    mutating func satisfiedWaiters() -> [CheckedContinuation<Bool, Never>] {
      var ready: [CheckedContinuation<Bool, Never>] = []
      for (token, waiter) in waiters where isSatisfied(waiter.condition) {
        waiters[token] = nil
        ready.append(waiter.continuation)
      }
      return ready
    }

    /// The index of the first sleeper to release by `deadline`: earliest deadline, then first
    /// to sleep.
    func next(upTo deadline: Instant) -> Int? {
      var best: Int?
      for index in sleepers.indices where sleepers[index].deadline <= deadline {
        if let current = best {
          let (a, b) = (sleepers[index], sleepers[current])
          if a.deadline < b.deadline || (a.deadline == b.deadline && a.id < b.id) { best = index }
        } else {
          best = index
        }
      }
      return best
    }
  }

  /// What a waiting call of the clock waits for.
  enum Condition {
    /// The released sleep `id` has returned in its task.
    case woke(UInt64)
    /// The task has started another sleep after sleep `id`.
    case sleptAgain(task: Int, after: UInt64)
    /// More than this many sleeps have started.
    case registration(UInt64)
    /// At least this many tasks sleep.
    case sleepers(Int)
  }

  /// A call of the clock's own methods waiting for a condition.
  struct Waiter {
    let condition: Condition
    /// Resumed with true when the condition holds, false when the wait times out.
    let continuation: CheckedContinuation<Bool, Never>
  }

  /// Suspends until the test moves the clock to `deadline` or later.
  ///
  /// - Parameters:
  ///   - deadline: The instant to sleep until.
  ///   - tolerance: Ignored.
  /// - Throws: `CancellationError` if the task is cancelled before or during the sleep.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = state.withLock { state in
      state.nextID += 1
      return state.nextID
    }
    let task = withUnsafeCurrentTask { $0?.hashValue } ?? 0
    defer {
      let ready = state.withLock { state in
        state.waking.remove(id)
        return state.satisfiedWaiters()
      }
      for waiter in ready { waiter.resume(returning: true) }
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let cancelled = state.withLock { state in
          if state.cancelledEarly.remove(id) != nil { return true }
          state.sleepers.append(
            Sleeper(id: id, deadline: deadline, task: task, continuation: continuation)
          )
          state.registrations += 1
          return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        for waiter in state.withLock({ $0.satisfiedWaiters() }) { waiter.resume(returning: true) }
      }
    } onCancel: {
      let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
        if let index = state.sleepers.firstIndex(where: { $0.id == id }) {
          return state.sleepers.remove(at: index).continuation
        }
        // Not registered yet (released sleeps are in `waking`): the registration will throw.
        if !state.waking.contains(id) { state.cancelledEarly.insert(id) }
        return nil
      }
      continuation?.resume(throwing: CancellationError())
    }
  }

  /// Suspends until `condition` holds or `timeout` of real time passes, without spinning;
  /// returns whether the condition holds.
  @discardableResult
  func wait(for condition: Condition, timeout: Swift.Duration) async -> Bool {
    let token = state.withLock { state in
      state.nextToken += 1
      return state.nextToken
    }
    return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      let holds = state.withLock { state in
        if state.isSatisfied(condition) { return true }
        state.waiters[token] = Waiter(condition: condition, continuation: continuation)
        return false
      }
      if holds {
        continuation.resume(returning: true)
        return
      }
      Task { [state] in
        try? await Task.sleep(for: timeout)
        let expired = state.withLock { $0.waiters.removeValue(forKey: token) }
        expired?.continuation.resume(returning: false)
      }
    }
  }
}
