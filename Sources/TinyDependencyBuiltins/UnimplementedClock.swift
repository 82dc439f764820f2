/// A clock for the test values of the built-in clocks: every use records an issue naming the
/// dependency, then behaves as an ``ImmediateClock``.
///
/// Reading ``now`` or sleeping records an issue, such as
/// "Unimplemented: @Dependency(\\.continuousClock) …"; sleeps then return at once and move the
/// clock's time forward, so the code under test goes on rather than hanging.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public final class UnimplementedClock<Duration: DurationProtocol & Hashable>: Clock, Sendable {
  /// The instants of the clock: those of an ``ImmediateClock``.
  public typealias Instant = ImmediateClock<Duration>.Instant

  /// The name reported, such as `continuousClock`.
  public let name: String
  private let base: ImmediateClock<Duration>

  /// Creates a clock whose uses are reported under `name`.
  ///
  /// - Parameters:
  ///   - name: The dependency's name, such as `continuousClock`.
  ///   - now: The starting time.
  public init(name: String = "clock", now: Instant = .init()) {
    self.name = name
    self.base = ImmediateClock(now: now)
  }

  /// The smallest interval the clock tells apart: zero.
  public var minimumResolution: Duration { .zero }

  /// Records an issue and returns the clock's time.
  public var now: Instant {
    report()
    return base.now
  }

  /// Records an issue, then moves the clock to `deadline` and returns at once.
  ///
  /// - Parameters:
  ///   - deadline: The instant to "sleep" until.
  ///   - tolerance: Ignored.
  /// - Throws: `CancellationError` if the task is cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    report()
    try await base.sleep(until: deadline, tolerance: tolerance)
  }

  private func report() {
    Placeholder.report(
      name,
      returned: "an ImmediateClock's time; its sleeps return at once",
      fix: "`$0.\(name) = TestClock()` or `$0.\(name) = ImmediateClock()`"
    )
  }
}
