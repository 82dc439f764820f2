import TinyDependency

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension TestClock {
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
  /// The default, 5 seconds, is ten times swift-clocks' 0.5: on a loaded machine (a full test
  /// suite on two cores) the work between two sleeps can take longer than half a second, and a
  /// timer that never stops is still reported, later. However starved the machine, the run
  /// moves time to the first sleep's deadline before it gives up. When it gives up, the sleeps
  /// still waiting throw `CancellationError`, so a test that then awaits the sleeping task
  /// fails rather than hangs.
  ///
  /// - Parameters:
  ///   - duration: The most real time to spend.
  ///   - fileID: Where to record the issue: the caller's file ID.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func run(
    timeout duration: Swift.Duration = .seconds(5),
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
  ) async {
    let start = ContinuousClock.now
    await letStartedWorkSleep()
    while let next = state.withLock({ $0.sleepers.map(\.deadline).min() }) {
      await advance(to: max(next, now))
      guard ContinuousClock.now - start > duration else { continue }
      let ended = state.withLock { state in
        defer { state.sleepers.removeAll() }
        return state.sleepers.map(\.continuation)
      }
      guard !ended.isEmpty else { return }
      IssueReporter.report(
        "TestClock.run(timeout:): \(ended.count) \(ended.count == 1 ? "sleep is" : "sleeps are") "
          + "still waiting after \(duration), and \(ended.count == 1 ? "throws" : "throw") "
          + "CancellationError. A timer or loop that never ends needs `advance(by:)` and "
          + "cancellation instead of `run()`.",
        at: SourceSite(fileID, filePath, line, column)
      )
      for continuation in ended { continuation.resume(throwing: CancellationError()) }
      return
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
      at: SourceSite(fileID, filePath, line, column)
    )
  }

  /// Waits until `released` has returned from its sleep in its own task, then until that task
  /// sleeps on this clock again, for at most ``settleTime``.
  func settle(_ released: Sleeper) async {
    await wait(for: .woke(released.id), timeout: Self.wakeTimeout)
    await wait(for: .sleptAgain(task: released.task, after: released.id), timeout: Self.settleTime)
  }

  /// Gives tasks that were started but have not yet begun to sleep the chance to: waits until
  /// no sleep has started for ``quietTime`` and, while nothing sleeps yet, ``settleTime`` in all.
  func letStartedWorkSleep() async {
    let start = ContinuousClock.now
    await Task.yield()
    while ContinuousClock.now - start < Self.wakeTimeout {
      let (registrations, anySleeper) = state.withLock { ($0.registrations, !$0.sleepers.isEmpty) }
      let waited = ContinuousClock.now - start
      let quiet = anySleeper ? Self.quietTime : max(Self.quietTime, Self.settleTime - waited)
      if await !wait(for: .registration(registrations), timeout: quiet) { return }
    }
  }
}
