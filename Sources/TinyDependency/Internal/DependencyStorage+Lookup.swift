/// The fast path of every read: a value set on the container or one of the scopes it derives
/// from, else a value already built here. No lock on Linux; nothing is retained on the way.
extension DependencyStorage {
  /// The box set or built for `id`, if any, unretained: it lives as long as this storage.
  @inlinable @inline(__always)
  func lookup(_ id: ObjectIdentifier) -> Unmanaged<AnyBox>? {
    overrides.unmanagedBox(for: id) ?? builtBox(for: id)
  }

  /// The box built here for `id`, if any, unretained.
  @usableFromInline
  func builtBox(for id: ObjectIdentifier) -> Unmanaged<AnyBox>? {
    builtIndex.box(for: id)
  }
}
