/// A type-erased, immutable box for a dependency value.
///
/// Values are stored boxed so that a read can use `unsafeDowncast` instead of a dynamic cast:
/// a key's `ObjectIdentifier` always maps to a `Box<Key.Value>`.
///
/// A box set as an override is also a layer of its ``PersistentMap``: the map links it to the
/// layer below through `layerKey` and `layerNext`, so setting a key allocates the box alone, not
/// a box and a layer (`allocations.scope.entry`: 3 allocations before, 2 after; 2,694
/// instructions a scope entry before, 2,438 after). Built values carry the two unused fields: 16
/// bytes each (`memory.firstRead`: 144 bytes a key before, 160 after).
///
/// A box also carries whether its value was shut down (`DependencyStorage+Preparation.swift`):
/// every scope that reads the value holds this box, so every read of it sees the mark. It costs
/// 8 bytes a box (`memory.firstRead`: 160 bytes a key before, 168 after) and 4 instructions a
/// read of a built value (`allocations.dependency.root`: 356 before, 360 after; overrides: none).
///
/// `@unchecked Sendable`: the value is a `let` of a `Sendable` type; `layerKey` and `layerNext`
/// are written once, by the map that links the box, before that map is shared or read (see
/// ``PersistentMap/set(_:linking:)``), and never after. The ended mark is written once, under
/// its storage's lock, while reads may run: an atomic on Linux, kept out of the two link fields
/// (an atomic access among the map's loads made every read of an override retain the map); on
/// Apple platforms, where `Atomic` can't be stored in a class that older systems run, a byte
/// (a read racing the end, itself a misuse, sees it set or not).
@usableFromInline
class AnyBox: @unchecked Sendable {
  /// The key this box is set under, as a layer of a map; 0 while the box is no layer.
  @usableFromInline @exclusivity(unchecked)
  var layerKey: UInt = 0
  /// The layer below this one in its map, if any.
  @usableFromInline @exclusivity(unchecked)
  var layerNext: AnyBox?

  @exclusivity(unchecked)
  private var ended = OnceFlag()

  @usableFromInline
  init() {}

  /// A new box with the same value, not linked into any map.
  func copied() -> AnyBox {
    fatalError("AnyBox.copied() is abstract: only a Box<Value> is set in a map")
  }
}

/// A box holding a value of one key's `Value` type.
@usableFromInline
final class Box<Value: Sendable>: AnyBox, @unchecked Sendable {
  @usableFromInline
  let value: Value

  /// `consuming`: the value moves into the box; borrowed, it was copied and the original
  /// destroyed once the ended mark's atomic was initialized too (`allocations.scope.entry`:
  /// 2,534 instructions borrowed, 2,508 consumed).
  @usableFromInline
  init(_ value: consuming Value) {
    self.value = value
  }

  override func copied() -> AnyBox { Box(value) }
}

extension AnyBox {
  /// Whether the value's lifetime ended (its scope instance ended, or it was shut down): reading
  /// it stops.
  var hasEnded: Bool { ended.isSet }

  /// Marks the value's lifetime as ended.
  func endLifetime() { ended.set() }

  /// The boxed value, read as `Key.Value`. Only valid for a box stored under `Key`.
  @inlinable @inline(__always)
  func unbox<Value: Sendable>(as type: Value.Type) -> Value {
    unsafeDowncast(self, to: Box<Value>.self).value
  }
}
