// The random steps of the scoping model's sequences (ScopingModelTests).

/// SplitMix64: small, seedable, and the same on every platform and toolchain.
struct ModelSplitMix64 {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<count`.
  mutating func below(_ count: Int) -> Int {
    Int(next() % UInt64(count))
  }
}

/// One step of a sequence.
enum ModelOperation {
  /// Enter a nested scope that overrides one or two keys.
  case enter
  /// Leave the current scope, or the continuation being yielded to.
  case leave
  /// Read a key through `DependencyValues.current`.
  case readCurrent
  /// Make an object that captures the current scope, and keep it.
  case makeObject
  /// Read a key through a kept object.
  case readObject
  /// Capture the current scope with `withEscapedDependencies`, and keep the continuation.
  case escape
  /// Read a key inside a kept continuation.
  case yieldAndRead
  /// Run more steps inside a kept continuation.
  case yieldAndContinue
  /// Copy the current container into a variable, and keep it.
  case makeContainer
  /// Set a key on a kept container variable, after it may have been bound.
  case mutateContainer
  /// Run more steps with a kept container bound.
  case bindContainer
  /// Read a key through an object that a built value read while it was built.
  case readNested
  /// Read a key inside the escaped scope that a built value holds.
  case readEscaped
  /// Read a key through the copy of `DependencyValues.current` that a built value keeps.
  case readHeld
  /// Read a value built from containers made inside its build, fresh and bound.
  case readFresh
  /// Set two keys in turn on a kept container variable, binding it and reading each round.
  case alternateContainer

  /// Operations in proportion to how often a sequence picks them.
  static let weighted: [ModelOperation] = [
    .enter, .enter, .enter, .leave, .leave, .readCurrent, .makeObject, .makeObject,
    .readObject, .readObject, .readObject, .readObject, .escape, .escape, .yieldAndRead,
    .yieldAndContinue, .yieldAndContinue, .makeContainer, .mutateContainer, .mutateContainer,
    .bindContainer, .bindContainer, .readNested, .readEscaped, .readHeld, .readFresh,
    .alternateContainer,
  ]
}
