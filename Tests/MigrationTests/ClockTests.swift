import Testing
import TinyDependency
import TinyDependencyBuiltins
import TinyDependencyConcurrency

// A feature that waits, as swift-dependencies' clock examples do.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
final class TimerModel {
  @Dependency(\.continuousClock) var clock
  var ticks = 0

  func start(ticks count: Int) async throws {
    for _ in 0..<count {
      try await clock.sleep(for: .seconds(1))
      ticks += 1
    }
  }
}

@Suite("Clocks are written where a clock is expected, as in swift-clocks")
struct ClockTests {
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func anImmediateClockWhereAClockIsExpected() async throws {
    let model = withDependencies {
      $0.continuousClock = .immediate
    } operation: {
      TimerModel()
    }
    let elapsed = try await model.clock.measure { try await model.start(ticks: 60) }
    #expect(model.ticks == 60)
    #expect(elapsed == .seconds(60))
  }

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func theStandardClocksByName() {
    withDependencies {
      $0.continuousClock = .continuous
      $0.suspendingClock = .suspending
    } operation: {
      @Dependency(\.continuousClock) var continuous
      @Dependency(\.suspendingClock) var suspending
      #expect(continuous is ContinuousClock)
      #expect(suspending is SuspendingClock)
    }
  }

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func anyClockHidesTheClocksType() async throws {
    let clock = AnyClock(ImmediateClock())
    let start = clock.now
    try await clock.sleep(for: .seconds(5))
    #expect(start.duration(to: clock.now) == .seconds(5))
    let clocks: [AnyClock<Duration>] = [clock, AnyClock(ContinuousClock())]
    #expect(clocks.count == 2)
  }

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func anUnimplementedClockInfersItsDuration() async throws {
    let clock = UnimplementedClock()
    let elapsed = LockIsolated(Duration.zero)
    await withKnownIssue {
      if let measured = try? await clock.measure({ try await clock.sleep(for: .seconds(1)) }) {
        elapsed.setValue(measured)
      }
    } matching: { issue in
      mentions(issue, "Unimplemented: @Dependency(\\.clock)")
    }
    #expect(elapsed.value == .seconds(1))
    let named = UnimplementedClock("timer")
    #expect(named.name == "timer")
  }
}
