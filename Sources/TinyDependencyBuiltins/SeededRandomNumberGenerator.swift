/// A random number generator that a seed fully determines: the same seed, the same numbers.
///
/// It implements SplitMix64: fast and well distributed, and **not** cryptographically secure.
/// Use it to make tests reproducible, through ``WithRandomNumberGenerator/seeded(_:)``.
///
/// ```swift
/// var generator = SeededRandomNumberGenerator(seed: 42)
/// let roll = Int.random(in: 1...6, using: &generator)  // the same on every run
/// ```
public struct SeededRandomNumberGenerator: RandomNumberGenerator, Sendable, Hashable {
  private var state: UInt64

  /// Creates a generator whose numbers `seed` determines.
  ///
  /// - Parameter seed: Any number; equal seeds give equal sequences.
  public init(seed: UInt64) {
    state = seed
  }

  /// Returns the next number of the sequence.
  ///
  /// - Returns: 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}
