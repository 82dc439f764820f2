package import TinyDependency

/// One member contributed to a collection or a map in a container: for the graph and the checks.
package struct Contribution {
  /// The member's key.
  package let key: any DependencyKey.Type
  /// The module that contributed it; nil when it was contributed outside a module.
  package let module: String?
  /// Its map key, for a map's member; nil for an ordered collection's.
  package let mapKey: AnyHashable?
}

/// What a key is to a collection, read from its type: for the graph and the checks.
package enum CollectionRole {
  /// An ordered collection, or a map, with whether it may be read with no member.
  case collection(isMap: Bool, allowsEmpty: Bool)
  /// A member of `owner`.
  case member(of: any DependencyKey.Type)

  /// The role of `key`, or nil when it is neither a collection, a map nor a member.
  package init?(of key: any DependencyKey.Type) {
    func owner<Member: DependencyContribution>(_: Member.Type) -> any DependencyKey.Type {
      Member.Collection.self
    }
    func mapOwner<Member: DependencyMapContribution>(_: Member.Type) -> any DependencyKey.Type {
      Member.Map.self
    }
    switch key {
    case let key as any DependencyCollectionKey.Type:
      self = .collection(isMap: false, allowsEmpty: key.allowsEmpty)
    case let key as any DependencyMapKey.Type:
      self = .collection(isMap: true, allowsEmpty: key.allowsEmpty)
    case let member as any DependencyContribution.Type: self = .member(of: owner(member))
    case let member as any DependencyMapContribution.Type: self = .member(of: mapOwner(member))
    default: return nil
    }
  }
}

extension DependencyValues {
  /// The members contributed to `owner` here (or in the containers this one derives from), in
  /// order; nil when `owner` is neither a collection nor a map. Builds nothing.
  package func contributions(to owner: any DependencyKey.Type) -> [Contribution]? {
    func collection<Key: DependencyCollectionKey>(_: Key.Type) -> [Contribution] {
      markerValue(CollectionMembers<Key>.self).contributions
    }
    func map<Key: DependencyMapKey>(_: Key.Type) -> [Contribution] {
      markerValue(MapMembers<Key>.self).contributions
    }
    switch owner {
    case let key as any DependencyCollectionKey.Type: return collection(key)
    case let key as any DependencyMapKey.Type: return map(key)
    default: return nil
    }
  }
}
