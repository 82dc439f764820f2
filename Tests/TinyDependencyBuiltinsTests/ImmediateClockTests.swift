import Testing
import TinyDependency
import TinyDependencyBuiltins

/// Fetches with retries, waiting longer after each failure: the shape of code that an
/// `ImmediateClock` tests without waiting.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct Retrier {
  @Dependency(\.continuousClock) var clock

  func fetch(
    attempts: Int,
    operation: () async throws -> String
  ) async throws -> String {
    var delay = Duration.seconds(1)
    for attempt in 1... {
      do {
        return try await operation()
      } catch  where attempt < attempts {
        try await clock.sleep(for: delay)
        delay *= 2
      }
    }
    fatalError("unreachable")
  }
}

struct Flaky: Error {}

@Suite("ImmediateClock")
struct ImmediateClockTests {
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func retryLoopWithBackOffFinishesAtOnceAndMovesTime() async throws {
    let clock = ImmediateClock()
    let failures = Tally()
    let result = try await withDependencies {
      $0.continuousClock = clock
    } operation: {
      try await Retrier().fetch(attempts: 5) {
        if failures.count < 4 {
          failures.record("failed")
          throw Flaky()
        }
        return "ok"
      }
    }
    #expect(result == "ok")
    #expect(failures.count == 4)
    // 1 + 2 + 4 + 8 seconds of back-off, none of it waited for.
    #expect(clock.now == .init(offset: .seconds(15)))
  }

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func aRetryLoopThatKeepsFailingGivesUp() async {
    let clock = ImmediateClock()
    _ = await withDependencies {
      $0.continuousClock = clock
    } operation: {
      await #expect(throws: Flaky.self) {
        try await Retrier().fetch(attempts: 3) { throw Flaky() }
      }
    }
    #expect(clock.now == .init(offset: .seconds(3)))
  }

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func sleepInACancelledTaskThrows() async {
    let clock = ImmediateClock()
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(for: .seconds(1))
    }
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(clock.now == .init(offset: .zero))
  }

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func timerOnAnImmediateClockTicksWithoutWaiting() async {
    let clock = ImmediateClock()
    var ticks: [Duration] = []
    for await tick in clock.timer(interval: .seconds(2)) {
      ticks.append(tick)
      if ticks.count == 3 { break }
    }
    #expect(ticks == [.seconds(2), .seconds(4), .seconds(6)])
    #expect(clock.now == .init(offset: .seconds(6)))
  }
}
