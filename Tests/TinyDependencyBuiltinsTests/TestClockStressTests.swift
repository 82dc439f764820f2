import Testing
import TinyDependency
import TinyDependencyBuiltins

extension Tag {
  /// Many tasks at once; CI runs these under ThreadSanitizer and AddressSanitizer.
  @Tag static var stress: Self
}

@Suite("Stress: tasks sleeping on one TestClock", .tags(.stress), .serialized)
struct TestClockStressTests {
  /// Eight tasks, each with its own interval, sleep in loops on one clock while the test
  /// advances it a step at a time: each task wakes exactly as often as its interval fits.
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func eightSleepingTasksWhileTheTestAdvances() async throws {
    let clock = TestClock()
    let wakes = Tally()
    let steps = 60
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 1...8 {
        group.addTask {
          for _ in 0..<(steps / index) {
            try await clock.sleep(for: .seconds(index))
            wakes.record("\(index)")
          }
        }
      }
      await clock.waitForSleepers(8)
      for step in 1...steps {
        await clock.advance(by: .seconds(1))
        let expected = (1...8).reduce(0) { $0 + step / $1 }
        #expect(wakes.count == expected, "after \(step) s")
      }
      try await group.waitForAll()
    }
    try await clock.checkSuspension()
  }

  /// Tasks that are cancelled while the test advances the clock end with CancellationError,
  /// and the clock keeps no sleeper of theirs.
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func cancellationRacingAdvance() async throws {
    let clock = TestClock()
    for _ in 0..<10 {
      let tasks = (0..<8).map { _ in
        Task { try await clock.sleep(for: .seconds(1)) }
      }
      await clock.waitForSleepers(8)
      for task in tasks.prefix(4) { task.cancel() }
      await clock.advance(by: .seconds(1))
      for task in tasks { _ = try? await task.value }
      try await clock.checkSuspension()
    }
  }
}
