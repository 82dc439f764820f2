/// A type-erased, immutable box for a dependency value.
///
/// Values are stored boxed so that a read can use `unsafeDowncast` instead of a dynamic cast:
/// a key's `ObjectIdentifier` always maps to a `Box<Key.Value>`.
///
/// `@unchecked Sendable`: the box has no state of its own; its subclass holds one `let` of a
/// `Sendable` type.
@usableFromInline
class AnyBox: @unchecked Sendable {
  @usableFromInline
  init() {}
}

/// A box holding a value of one key's `Value` type.
@usableFromInline
final class Box<Value: Sendable>: AnyBox, @unchecked Sendable {
  @usableFromInline
  let value: Value

  @usableFromInline
  init(_ value: Value) {
    self.value = value
  }
}

extension AnyBox {
  /// The boxed value, read as `Key.Value`. Only valid for a box stored under `Key`.
  @inlinable @inline(__always)
  func unbox<Value: Sendable>(as type: Value.Type) -> Value {
    unsafeDowncast(self, to: Box<Value>.self).value
  }
}
