/// An async key type, kept to name and tell apart the keys of builds and messages.
///
/// `@unchecked Sendable`: a metatype is an immutable, process-wide identity, used here only for
/// its identity, its name and its builders.
struct AsyncKeyType: @unchecked Sendable, Hashable {
  let type: any AsyncDependencyKey.Type

  init(_ type: any AsyncDependencyKey.Type) { self.type = type }

  var id: ObjectIdentifier { ObjectIdentifier(type) }

  /// The key's short name, for messages.
  var name: String { _typeName(type, qualified: false) }

  static func == (lhs: AsyncKeyType, rhs: AsyncKeyType) -> Bool { lhs.id == rhs.id }

  func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
