/// A value built for a key, and the keys it read while being built.
package struct BuiltValue: Sendable {
  let box: AnyBox
  /// Every key the build read, directly or through the keys it read.
  package let inputs: Set<ObjectIdentifier>
  /// The key the value was built for.
  package let key: KeyType
  /// The keys the build read itself, in the order it first read them.
  let reads: [KeyType]
  /// How the value keeps the scope it was built in.
  let hold: ScopeHold

  init(
    box: AnyBox,
    inputs: Set<ObjectIdentifier>,
    key: KeyType,
    reads: [KeyType],
    hold: ScopeHold = .none
  ) {
    self.box = box
    self.inputs = inputs
    self.key = key
    self.reads = reads
    self.hold = hold
  }
}
