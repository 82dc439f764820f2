/// A clock that hides the type of another: store any clock measured in `Duration` in one type.
///
/// ```swift
/// let clock = AnyClock(ContinuousClock())
/// try await clock.sleep(for: .seconds(1))
/// ```
///
/// Its instants are offsets from the moment it was made, so two `AnyClock`s over different
/// clocks have instants of one type.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public final class AnyClock<Duration: DurationProtocol & Hashable>: Clock, Sendable {
  /// A point in time of this clock: an offset from when it was made.
  public typealias Instant = ClockInstant<Duration>

  private let elapsed: @Sendable () -> Duration
  private let sleeper: @Sendable (Duration, Duration?) async throws -> Void
  private let resolution: @Sendable () -> Duration

  /// Wraps `clock`.
  ///
  /// - Parameter clock: The clock to read and sleep with.
  public init<Base: Clock>(_ clock: Base) where Base.Duration == Duration {
    let start = clock.now
    elapsed = { start.duration(to: clock.now) }
    sleeper = { offset, tolerance in
      try await clock.sleep(until: start.advanced(by: offset), tolerance: tolerance)
    }
    resolution = { clock.minimumResolution }
  }

  /// The wrapped clock's smallest interval.
  public var minimumResolution: Duration { resolution() }

  /// The wrapped clock's time, as an offset from when this clock was made.
  public var now: Instant { Instant(offset: elapsed()) }

  /// Sleeps on the wrapped clock until `deadline`.
  ///
  /// - Parameters:
  ///   - deadline: The instant to wake at.
  ///   - tolerance: How late the wake may be.
  /// - Throws: What the wrapped clock's sleep throws, such as `CancellationError`.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try await sleeper(deadline.offset, tolerance)
  }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension Clock where Self == ImmediateClock<Swift.Duration> {
  /// A clock whose sleeps return at once, where a clock is expected:
  /// `$0.continuousClock = .immediate`.
  public static var immediate: Self { ImmediateClock() }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension UnimplementedClock where Duration == Swift.Duration {
  /// Creates a clock measured in `Swift.Duration` whose uses are reported under `name`.
  ///
  /// ```swift
  /// let clock = UnimplementedClock()
  /// ```
  ///
  /// - Parameter name: The name reported, such as `continuousClock`.
  public convenience init(_ name: String = "clock") {
    self.init(name: name, now: .init())
  }
}
