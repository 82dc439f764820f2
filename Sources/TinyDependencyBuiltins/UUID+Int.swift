public import Foundation

extension UUID {
  /// Creates the UUID whose last 12 hexadecimal digits spell `intValue`: `UUID(1)` is
  /// `00000000-0000-0000-0000-000000000001`.
  ///
  /// Meant for tests, together with ``UUIDGenerator/incrementing``.
  ///
  /// - Parameter intValue: A number from 0 to 2⁴⁸ − 1 (to `Int.max` where `Int` has 32 bits);
  ///   others are a programmer error.
  public init(_ intValue: Int) {
    self.init(number: intValue)
  }

  /// The UUID of `number`, computed in 64 bits whatever the width of `Number`: where `Int` has
  /// 32 bits (watchOS on arm64_32), `1 << 48` as an `Int` is 0.
  init<Number: BinaryInteger>(number: Number) {
    let value = UInt64(exactly: number) ?? .max
    precondition(
      value < 1 << 48,
      "UUID(\(number)): the number must be in 0..<2^48 to fit the last 12 hexadecimal digits"
    )
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
