@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension Clock {
  /// Returns a sequence that ticks every `interval` on this clock until its task is cancelled.
  ///
  /// ```swift
  /// for await _ in clock.timer(interval: .seconds(1)) {
  ///   count += 1
  /// }
  /// ```
  ///
  /// The n-th tick is due `n * interval` after the clock's time when iteration begins, so ticks
  /// don't drift; its element is that elapsed time. The sequence ends when the task is
  /// cancelled. It works on `any Clock<Duration>` too, such as `@Dependency(\.continuousClock)`.
  ///
  /// - Parameters:
  ///   - interval: The time between ticks.
  ///   - tolerance: Passed to each sleep.
  /// - Returns: The sequence of ticks.
  public func timer(interval: Duration, tolerance: Duration? = nil) -> ClockTimer<Duration> {
    ClockTimer(interval: interval) {
      let start = self.now
      return { elapsed in
        do {
          try await self.sleep(until: start.advanced(by: elapsed), tolerance: tolerance)
          return true
        } catch {
          return false
        }
      }
    }
  }
}

/// The ticks of a clock's timer; see `Clock.timer(interval:tolerance:)`.
///
/// Each element is the time from the start of iteration to the tick.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct ClockTimer<Duration: DurationProtocol>: AsyncSequence, Sendable {
  /// The time from the start of iteration to the tick.
  public typealias Element = Duration

  let interval: Duration
  /// Reads the clock's time and returns a function that sleeps until that time plus its
  /// argument, returning false when cancelled.
  let start: @Sendable () -> @Sendable (Duration) async -> Bool

  /// Starts the ticks from the clock's current time.
  public func makeAsyncIterator() -> Iterator {
    Iterator(interval: interval, sleep: start())
  }

  /// Sleeps until each tick.
  public struct Iterator: AsyncIteratorProtocol {
    let interval: Duration
    let sleep: @Sendable (Duration) async -> Bool
    var elapsed: Duration = .zero

    /// Waits for the next tick; nil once the task is cancelled.
    public mutating func next() async -> Duration? {
      let due = elapsed + interval
      guard await sleep(due) else { return nil }
      elapsed = due
      return due
    }
  }
}
