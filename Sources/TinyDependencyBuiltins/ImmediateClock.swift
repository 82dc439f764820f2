import TinyDependency

/// A clock whose sleeps return at once, moving its time forward to their deadlines.
///
/// Use it where a test doesn't care how long something waits, only that it goes on: retries
/// with back-off, debounces, polling.
///
/// ```swift
/// let clock = ImmediateClock()
/// try await clock.sleep(for: .seconds(30))   // returns at once
/// // clock.now is 30 seconds later than before
/// ```
///
/// A sleep checks for cancellation (throwing `CancellationError`), moves ``now`` to its
/// deadline if that is later, and yields once, so other tasks can run.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public final class ImmediateClock<Duration: DurationProtocol & Hashable>: Clock, Sendable {
  /// A point in time of this clock: an offset from its start.
  public typealias Instant = ClockInstant<Duration>

  private let current: Locked<Instant>

  /// The smallest interval the clock tells apart: zero.
  public var minimumResolution: Duration { .zero }

  /// The clock's current time: its start, plus every sleep so far.
  public var now: Instant { current.withLock { $0 } }

  /// Creates an immediate clock whose time starts at `now`.
  ///
  /// - Parameter now: The starting time.
  public init(now: Instant = .init()) {
    current = Locked(now)
  }

  /// Moves the clock to `deadline`, if later, and returns at once.
  ///
  /// - Parameters:
  ///   - deadline: The instant to "sleep" until.
  ///   - tolerance: Ignored.
  /// - Throws: `CancellationError` if the task is cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    current.withLock { $0 = max($0, deadline) }
    await Task.yield()
  }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension ImmediateClock where Duration == Swift.Duration {
  /// Creates an immediate clock measured in `Swift.Duration`, starting at zero.
  public convenience init() {
    self.init(now: .init())
  }
}
