public import Foundation

extension UUID {
  /// Creates the UUID whose last 12 hexadecimal digits spell `intValue`: `UUID(1)` is
  /// `00000000-0000-0000-0000-000000000001`.
  ///
  /// Meant for tests, together with ``UUIDGenerator/incrementing``.
  ///
  /// - Parameter intValue: A number from 0 to 2⁴⁸ − 1; others are a programmer error.
  public init(_ intValue: Int) {
    precondition(
      (0..<(1 << 48)).contains(intValue),
      "UUID(\(intValue)): the number must be in 0..<2^48 to fit the last 12 hexadecimal digits"
    )
    let value = UInt64(intValue)
    self.init(
      uuid: (
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        UInt8(truncatingIfNeeded: value >> 40),
        UInt8(truncatingIfNeeded: value >> 32),
        UInt8(truncatingIfNeeded: value >> 24),
        UInt8(truncatingIfNeeded: value >> 16),
        UInt8(truncatingIfNeeded: value >> 8),
        UInt8(truncatingIfNeeded: value)
      )
    )
  }
}
