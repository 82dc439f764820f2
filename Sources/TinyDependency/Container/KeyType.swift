/// A key type, kept to name and tell apart the keys of graphs and messages.
///
/// `@unchecked Sendable`: a metatype is an immutable, process-wide identity; it is only used
/// here for its identity, its name and its `lifetime`, none of which touch isolated state.
package struct KeyType: @unchecked Sendable, Hashable {
  package let type: any DependencyKey.Type

  package init(_ type: any DependencyKey.Type) { self.type = type }

  package var id: ObjectIdentifier { ObjectIdentifier(type) }

  /// The key's short name, for messages: a wrapper key goes by the user's key it wraps.
  package var name: String { Self.name(of: type) }

  package static func == (lhs: KeyType, rhs: KeyType) -> Bool { lhs.id == rhs.id }

  package func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

extension KeyType {
  /// The short name of a key, or of the user's key a wrapper key (a main-actor or test-only
  /// key's stand-in) wraps.
  static func name(of type: Any.Type) -> String {
    _typeName((type as? any WrapperKey.Type)?.wrappedKey ?? type, qualified: false)
  }

  /// The key whose `ObjectIdentifier(Key.self)` is `id`. Safe for the ids a container stores,
  /// each made from a key's metatype: `ObjectIdentifier` is `@frozen` with the metatype's address
  /// as its one field, part of the standard library's ABI (`KeyTypeTests` pins it).
  init(identifiedBy id: ObjectIdentifier) {
    let type = unsafeBitCast(id, to: Any.Type.self)
    self.init(type as! any DependencyKey.Type)
  }
}

/// A key stored under a wrapper (a main-actor key, a key with only test and preview values):
/// messages, the graph and the validator name it by the key it wraps.
package protocol WrapperKey { static var wrappedKey: Any.Type { get } }
