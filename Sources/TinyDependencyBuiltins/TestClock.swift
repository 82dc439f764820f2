import TinyDependency

/// A clock whose time moves only when a test moves it.
///
/// Code under test sleeps on the clock; the test moves time with ``advance(by:)``,
/// ``advance(to:)`` or ``run(timeout:fileID:filePath:line:column:)`` and checks what happened:
///
/// ```swift
/// let clock = TestClock()
/// let ticks = Ticks()
/// let task = Task {
///   for await _ in clock.timer(interval: .seconds(1)) { ticks.increment() }
/// }
/// await clock.advance(by: .seconds(3))
/// // ticks.count == 3
/// task.cancel()
/// ```
///
/// ## What the clock guarantees
///
/// - A sleep always suspends until the test moves time, even with a deadline already passed;
///   ``advance(by:)`` with no argument (by zero) releases those.
/// - `advance` releases the sleepers whose deadlines it reaches one at a time, in deadline
///   order (equal deadlines in the order they started sleeping); ``now`` is each sleeper's
///   deadline when it resumes, and the target when `advance` returns.
/// - Before it releases the next sleeper, `advance` waits until the sleep it released has
///   returned in the sleeper's own task (up to five seconds of real time, in case that task
///   can't run), then until that task sleeps on this clock again, for at most 20 ms of real
///   time. So the work between two sleeps on this clock, such as a timer loop's body, has
///   finished when `advance` returns, however loaded the machine is.
/// - A cancelled sleeper is removed at once and its sleep throws `CancellationError`.
/// - The clock's own waits never spin: they suspend until a sleep starts or returns, or until a
///   real-time timeout.
///
/// What it can't guarantee without private runtime API:
///
/// - That a released task which then finishes, or waits on something other than this clock,
///   has got there when `advance` returns: it gets 20 ms, which is usually but not always
///   enough on a loaded machine.
/// - That a task started just before `advance` has begun to sleep. `advance`, `run` and
///   ``checkSuspension()`` first wait until no sleep has started for 2 ms (and, while nothing
///   sleeps at all, for 20 ms); a task that the system keeps off the CPU longer than that
///   starts its sleep late, measured from the time it then reads. When a test needs
///   certainty, call ``waitForSleepers(_:timeout:fileID:filePath:line:column:)`` first.
///
/// `@unchecked Sendable`: all state is guarded by one lock, never held while other code runs.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public final class TestClock<Duration: DurationProtocol & Hashable>: Clock, @unchecked Sendable {
  /// A point in time of this clock: an offset from its start.
  public typealias Instant = ClockInstant<Duration>

  /// The error ``TestClock/checkSuspension()`` throws when a task is sleeping on the clock.
  public struct SuspensionError: Error, Sendable, CustomStringConvertible {
    /// How many sleeps were waiting.
    public let sleepers: Int

    /// What went wrong.
    public var description: String {
      "\(sleepers) \(sleepers == 1 ? "task is" : "tasks are") still sleeping on the TestClock"
    }
  }

  private struct Sleeper {
    let id: UInt64
    let deadline: Instant
    /// The sleeping task's identity, to recognize its next sleep.
    let task: Int
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
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
  private enum Condition {
    /// The released sleep `id` has returned in its task.
    case woke(UInt64)
    /// The task has started another sleep after sleep `id`.
    case sleptAgain(task: Int, after: UInt64)
    /// More than this many sleeps have started.
    case registration(UInt64)
    /// At least this many tasks sleep.
    case sleepers(Int)
  }

  private struct Waiter {
    let condition: Condition
    /// Resumed with true when the condition holds, false when the wait times out.
    let continuation: CheckedContinuation<Bool, Never>
  }

  /// How much real time `advance` gives released work to reach its next sleep.
  static var settleTime: Swift.Duration { .milliseconds(20) }
  /// How long no sleep must start before `advance` considers started work asleep.
  static var quietTime: Swift.Duration { .milliseconds(2) }
  /// The longest `advance` waits, in real time, for a released sleep to return in its task.
  static var wakeTimeout: Swift.Duration { .seconds(5) }

  private let state: Locked<State>

  /// The smallest interval the clock tells apart: zero.
  public var minimumResolution: Duration { .zero }

  /// The clock's current time, which only ``advance(by:)`` and its relatives move.
  public var now: Instant { state.withLock { $0.now } }

  /// Creates a test clock whose time starts at `now`.
  ///
  /// - Parameter now: The starting time.
  public init(now: Instant = .init()) {
    state = Locked(State(now: now))
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

  /// Moves time forward by `duration`, releasing in order every sleep that comes due.
  ///
  /// See the type's discussion for what has run when it returns.
  ///
  /// - Parameter duration: How far to move; zero releases the sleeps already due.
  public func advance(by duration: Duration = .zero) async {
    await advance(to: now.advanced(by: duration))
  }

  /// Moves time forward to `deadline`, releasing in order every sleep that comes due.
  ///
  /// Moving backwards is a mistake in the test: it is recorded as an issue and time stays put.
  ///
  /// - Parameter deadline: The instant to move to.
  public func advance(to deadline: Instant) async {
    await letStartedWorkSleep()
    let current = now
    guard current <= deadline else {
      IssueReporter.report(
        "TestClock.advance(to:) can't move time backwards, from \(current.offset) to "
          + "\(deadline.offset). Advance by a positive duration."
      )
      return
    }
    while true {
      let released = state.withLock { state -> Sleeper? in
        guard let index = state.next(upTo: deadline) else {
          state.now = max(state.now, deadline)
          return nil
        }
        let sleeper = state.sleepers.remove(at: index)
        state.now = max(state.now, sleeper.deadline)
        state.waking.insert(sleeper.id)
        return sleeper
      }
      guard let released else { return }
      released.continuation.resume()
      await settle(released)
    }
  }

  /// Moves time forward until no task is sleeping on the clock, or records an issue when
  /// sleeps still remain after `duration` of real time (a timer that never stops, say).
  ///
  /// - Parameters:
  ///   - duration: The most real time to spend.
  ///   - fileID: Where to record the issue: the caller's file ID.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func run(
    timeout duration: Swift.Duration = .milliseconds(500),
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
  ) async {
    let start = ContinuousClock.now
    await letStartedWorkSleep()
    while let next = state.withLock({ $0.sleepers.map(\.deadline).min() }) {
      if ContinuousClock.now - start > duration {
        let count = state.withLock { $0.sleepers.count }
        IssueReporter.report(
          "TestClock.run(timeout:): \(count) \(count == 1 ? "sleep is" : "sleeps are") still "
            + "waiting after \(duration). A timer or loop that never ends needs "
            + "`advance(by:)` and cancellation instead of `run()`.",
          fileID: fileID,
          filePath: filePath,
          line: line,
          column: column
        )
        return
      }
      await advance(to: max(next, now))
    }
  }

  /// Throws if any task is sleeping on the clock, after letting started work reach its sleep.
  ///
  /// Use it to prove that nothing time-based is still pending.
  ///
  /// - Throws: ``SuspensionError`` when a sleep is waiting.
  public func checkSuspension() async throws {
    await letStartedWorkSleep()
    let count = state.withLock { $0.sleepers.count }
    if count > 0 { throw SuspensionError(sleepers: count) }
  }

  /// Waits until at least `count` tasks sleep on the clock, so that a test can start work and
  /// know it is waiting before moving time.
  ///
  /// ```swift
  /// let task = Task { try await clock.sleep(for: .seconds(1)) }
  /// await clock.waitForSleepers(1)
  /// await clock.advance(by: .seconds(1))
  /// ```
  ///
  /// After `timeout` of real time it records an issue at the caller and returns.
  ///
  /// - Parameters:
  ///   - count: How many sleeping tasks to wait for.
  ///   - timeout: The most real time to wait.
  ///   - fileID: Where to record the issue: the caller's file ID.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func waitForSleepers(
    _ count: Int = 1,
    timeout: Swift.Duration = .seconds(5),
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
  ) async {
    if await wait(for: .sleepers(count), timeout: timeout) { return }
    let sleeping = state.withLock { $0.sleepers.count }
    IssueReporter.report(
      "TestClock.waitForSleepers(\(count)): only \(sleeping) sleeping after \(timeout).",
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  /// Waits until `released` has returned from its sleep in its own task, then until that task
  /// sleeps on this clock again, for at most ``settleTime``.
  private func settle(_ released: Sleeper) async {
    await wait(for: .woke(released.id), timeout: Self.wakeTimeout)
    await wait(for: .sleptAgain(task: released.task, after: released.id), timeout: Self.settleTime)
  }

  /// Gives tasks that were started but have not yet begun to sleep the chance to: waits until
  /// no sleep has started for ``quietTime`` and, while nothing sleeps yet, ``settleTime`` in all.
  private func letStartedWorkSleep() async {
    let start = ContinuousClock.now
    await Task.yield()
    while ContinuousClock.now - start < Self.wakeTimeout {
      let (registrations, anySleeper) = state.withLock { ($0.registrations, !$0.sleepers.isEmpty) }
      let waited = ContinuousClock.now - start
      let quiet = anySleeper ? Self.quietTime : max(Self.quietTime, Self.settleTime - waited)
      if await !wait(for: .registration(registrations), timeout: quiet) { return }
    }
  }

  /// Suspends until `condition` holds or `timeout` of real time passes, without spinning;
  /// returns whether the condition holds.
  @discardableResult
  private func wait(for condition: Condition, timeout: Swift.Duration) async -> Bool {
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

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension TestClock where Duration == Swift.Duration {
  /// Creates a test clock measured in `Swift.Duration`, starting at zero.
  public convenience init() {
    self.init(now: .init())
  }
}
