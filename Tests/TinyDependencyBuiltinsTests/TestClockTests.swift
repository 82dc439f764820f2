import Foundation
import Testing
import TinyDependency
import TinyDependencyBuiltins

@Suite("TestClock", .serialized)
struct TestClockTests {
  // MARK: - Timers

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func timerLoopTicksOncePerAdvanceForAHundredTicks() async {
    let clock = TestClock()
    let ticks = Tally()
    let task = Task {
      for await _ in clock.timer(interval: .seconds(1)) { ticks.record("tick") }
    }
    await clock.waitForSleepers(1)
    for expected in 1...100 {
      await clock.advance(by: .seconds(1))
      #expect(ticks.count == expected)
    }
    task.cancel()
    await task.value
  }

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func oneLargeAdvanceRunsEveryTickItCrosses() async {
    let clock = TestClock()
    let ticks = Tally()
    let task = Task {
      for await _ in clock.timer(interval: .seconds(1)) { ticks.record("tick") }
    }
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(100))
    #expect(ticks.count == 100)
    #expect(clock.now == .init(offset: .seconds(100)))
    task.cancel()
    await task.value
  }

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func timerThroughTheBuiltInClockDependency() async {
    let clock = TestClock()
    let ticks = Tally()
    await withDependencies {
      $0.continuousClock = clock
    } operation: {
      @Dependency(\.continuousClock) var continuousClock
      let task = Task {
        for await _ in continuousClock.timer(interval: .milliseconds(10)) {
          ticks.record("tick")
        }
      }
      await clock.waitForSleepers(1)
      await clock.advance(by: .milliseconds(35))
      #expect(ticks.count == 3)
      task.cancel()
      await task.value
    }
  }

  // MARK: - Sleeping

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func sleepWaitsUntilTimeReachesItsDeadline() async throws {
    let clock = TestClock()
    let tally = Tally()
    let task = Task {
      try await clock.sleep(for: .seconds(5))
      tally.record("woke")
    }
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(4))
    #expect(tally.count == 0)
    await clock.advance(by: .seconds(1))
    #expect(tally.all == ["woke"])
    try await task.value
  }

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func cancellingASleepingTaskThrowsCancellationError() async {
    let clock = TestClock()
    let task = Task {
      try await clock.sleep(for: .seconds(1))
    }
    await clock.waitForSleepers(1)
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    await #expect(throws: Never.self) { try await clock.checkSuspension() }
  }

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func aTaskCancelledBeforeItSleepsThrowsAtOnce() async {
    let clock = TestClock()
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(for: .seconds(1))
    }
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func twoSleepersResumeInDeadlineOrder() async throws {
    let clock = TestClock()
    let order = Tally()
    let late = Task {
      try await clock.sleep(for: .seconds(2))
      order.record("late at \(clock.now.offset)")
    }
    let early = Task {
      try await clock.sleep(for: .seconds(1))
      order.record("early at \(clock.now.offset)")
    }
    await clock.waitForSleepers(2)
    await clock.advance(by: .seconds(3))
    #expect(order.all == ["early at 1.0 seconds", "late at 2.0 seconds"])
    try await late.value
    try await early.value
  }

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func sleepersWithEqualDeadlinesResumeInTheOrderTheySlept() async throws {
    let clock = TestClock()
    let order = Tally()
    var tasks: [Task<Void, any Error>] = []
    for index in 0..<5 {
      tasks.append(
        Task {
          try await clock.sleep(until: .init(offset: .seconds(1)))
          order.record("\(index)")
        }
      )
      await clock.waitForSleepers(index + 1)  // asleep before the next one starts
    }
    await clock.advance(by: .seconds(1))
    #expect(order.all == ["0", "1", "2", "3", "4"])
    for task in tasks { try await task.value }
  }

  // MARK: - run, checkSuspension, bounds

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func runFinishesEverySleep() async throws {
    let clock = TestClock()
    let tally = Tally()
    let task = Task {
      for step in 1...3 {
        try await clock.sleep(for: .seconds(10))
        tally.record("step \(step)")
      }
    }
    await clock.run()
    #expect(tally.count == 3)
    #expect(clock.now == .init(offset: .seconds(30)))
    try await task.value
    try await clock.checkSuspension()
  }

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func runRecordsAnIssueForATimerThatNeverEnds() async {
    let clock = TestClock()
    let task = Task {
      for await _ in clock.timer(interval: .seconds(1)) {}
    }
    await withKnownIssue {
      await clock.run(timeout: .milliseconds(50))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("still waiting after") }
    }
    task.cancel()
    await task.value
  }

  /// A run that gives up ends the sleeps still waiting with `CancellationError`: a test that
  /// then awaits the sleeping task finishes (and fails) instead of hanging.
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func aRunThatTimesOutEndsTheSleepsStillWaiting() async {
    let clock = TestClock()
    let first = Task { try await clock.sleep(for: .seconds(1)) }
    let second = Task { () -> String in
      do {
        try await clock.sleep(for: .seconds(2))
        return "woke"
      } catch {
        return Task.isCancelled ? "task cancelled" : "\(type(of: error)) from the clock"
      }
    }
    await clock.waitForSleepers(2)
    await withKnownIssue {
      await clock.run(timeout: .zero)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("1 sleep is still waiting after") }
    }
    let stillSleeping = await (try? clock.checkSuspension()) == nil
    #expect(!stillSleeping)
    if stillSleeping {  // So that the test ends when it fails.
      first.cancel()
      second.cancel()
    }
    #expect((try? await first.value) != nil)
    #expect(await second.value == "CancellationError from the clock")
    #expect(clock.now == .init(offset: .seconds(1)))
  }

  /// However starved the machine, a run moves time to the first sleep's deadline before it
  /// gives up: a countdown's last second passes even with a timeout of zero.
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func aRunMovesTimeOnceBeforeItGivesUp() async throws {
    let clock = TestClock()
    let task = Task { try await clock.sleep(for: .seconds(1)) }
    await clock.waitForSleepers(1)
    await clock.run(timeout: .zero)
    if (try? await clock.checkSuspension()) == nil {  // So that the test ends when it fails.
      Issue.record("the sleep is still waiting")
      task.cancel()
    }
    try await task.value
    #expect(clock.now == .init(offset: .seconds(1)))
  }

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func checkSuspensionThrowsWhileATaskSleeps() async throws {
    let clock = TestClock()
    let task = Task { try await clock.sleep(for: .seconds(1)) }
    await clock.waitForSleepers(1)
    await #expect(throws: TestClock<Duration>.SuspensionError.self) {
      try await clock.checkSuspension()
    }
    await clock.advance(by: .seconds(1))
    try await task.value
    try await clock.checkSuspension()
  }

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func advanceToAnEarlierInstantIsAnIssue() async {
    let clock = TestClock<Duration>(now: .init(offset: .seconds(10)))
    await withKnownIssue {
      await clock.advance(to: .init(offset: .seconds(5)))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("can't move time backwards") }
    }
    #expect(clock.now == .init(offset: .seconds(10)))
  }

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func advanceToMovesToTheInstant() async {
    let clock = TestClock()
    await clock.advance(to: .init(offset: .milliseconds(250)))
    #expect(clock.now.offset == .milliseconds(250))
  }
}
