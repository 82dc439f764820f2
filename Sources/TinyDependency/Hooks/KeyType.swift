/// A key type, kept to name and tell apart the keys of graphs and messages.
///
/// `@unchecked Sendable`: a metatype is an immutable, process-wide identity; it is only used
/// here for its identity, its name and its `lifetime`, none of which touch isolated state.
package struct KeyType: @unchecked Sendable, Hashable {
  package let type: any DependencyKey.Type

  package init(_ type: any DependencyKey.Type) { self.type = type }

  package var id: ObjectIdentifier { ObjectIdentifier(type) }

  /// The key's short name, for messages.
  package var name: String { _typeName(type, qualified: false) }

  package static func == (lhs: KeyType, rhs: KeyType) -> Bool { lhs.id == rhs.id }

  package func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

extension KeyType {
  /// The key whose `ObjectIdentifier(Key.self)` is `id`. Safe for the ids a container stores,
  /// each made from a key's metatype: `ObjectIdentifier` is `@frozen` with the metatype's address
  /// as its one field, part of the standard library's ABI (`KeyTypeTests` pins it).
  init(identifiedBy id: ObjectIdentifier) {
    let type = unsafeBitCast(id, to: Any.Type.self)
    self.init(type as! any DependencyKey.Type)
  }
}
