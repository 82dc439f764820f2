import Dispatch
import TinyDependency

/// Binary digits spelled as types, so that a generic key can be made in any number of distinct
/// versions: `NumberedKey<Bit1<Bit0<NoBits>>>`.
enum NoBits {}
enum Bit0<Rest> {}
enum Bit1<Rest> {}

/// A key of its own for every number.
enum NumberedKey<Number>: DependencyKey {
  static var defaultValue: Int { 0 }
}

/// `count` distinct key types, sorted by the names graphs give them.
func numberedKeys(_ count: Int) -> [any DependencyKey.Type] {
  var width = 1
  while 1 << width < count { width += 1 }
  func key<Rest>(_ number: Int, bits: Int, _ rest: Rest.Type) -> any DependencyKey.Type {
    if bits == 0 { return NumberedKey<Rest>.self }
    return number & 1 == 0
      ? key(number >> 1, bits: bits - 1, Bit0<Rest>.self)
      : key(number >> 1, bits: bits - 1, Bit1<Rest>.self)
  }
  return (0..<count).map { key($0, bits: width, NoBits.self) }
    .sorted { _typeName($0, qualified: false) < _typeName($1, qualified: false) }
}
