/// A point in time of a ``TestClock`` or an ``ImmediateClock``: an offset from the clock's start.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct ClockInstant<Duration: DurationProtocol & Hashable>: InstantProtocol, Hashable,
  Sendable
{
  /// The time since the clock's start.
  public let offset: Duration

  /// Creates an instant `offset` after the clock's start.
  ///
  /// - Parameter offset: The time since the start.
  public init(offset: Duration = .zero) {
    self.offset = offset
  }

  /// Returns the instant `duration` later.
  ///
  /// - Parameter duration: The time to add.
  /// - Returns: The later instant.
  public func advanced(by duration: Duration) -> Self {
    Self(offset: offset + duration)
  }

  /// Returns the time from this instant to `other`.
  ///
  /// - Parameter other: The other instant.
  /// - Returns: The time between them, negative when `other` is earlier.
  public func duration(to other: Self) -> Duration {
    other.offset - offset
  }

  /// Orders instants by time.
  public static func < (lhs: Self, rhs: Self) -> Bool {
    lhs.offset < rhs.offset
  }
}
