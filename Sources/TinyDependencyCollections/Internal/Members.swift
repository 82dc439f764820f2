package import TinyDependency

/// The members contributed to one collection or map in a container, in the order they came.
struct MemberList<Tag: Sendable, Element: Sendable>: Sendable {
  /// One member: its key, its map key (`Void` for an ordered collection), the module that
  /// contributed it, and the read of its value.
  struct Member: Sendable {
    let key: any DependencyKey.Type
    let tag: Tag
    let module: String?
    let read: @Sendable (DependencyValues) -> Element

    var id: ObjectIdentifier { ObjectIdentifier(key) }
    var name: String { _typeName(key, qualified: false) }
  }

  var members: [Member] = []
}

extension MemberList {
  /// The members as the graph and the checks see them, whatever their types.
  var contributions: [Contribution] {
    members.map { member in
      Contribution(
        key: member.key,
        module: member.module,
        mapKey: (member.tag as? any Hashable).map { AnyHashable($0) }
      )
    }
  }
}

/// The internal marker key that holds a collection's members, set on a container as an input
/// of the collection's build: a scope that contributes builds the collection again there.
enum CollectionMembers<Collection: DependencyCollectionKey>: DependencyKey, MembersMarker {
  static var defaultValue: MemberList<Void, Collection.Element> { MemberList() }
  static var testValue: MemberList<Void, Collection.Element> { MemberList() }
  static var previewValue: MemberList<Void, Collection.Element> { MemberList() }
  static var owner: any DependencyKey.Type { Collection.self }
}

/// The internal marker key that holds a map's members.
enum MapMembers<Map: DependencyMapKey>: DependencyKey, MembersMarker {
  static var defaultValue: MemberList<Map.MapKey, Map.Element> { MemberList() }
  static var testValue: MemberList<Map.MapKey, Map.Element> { MemberList() }
  static var previewValue: MemberList<Map.MapKey, Map.Element> { MemberList() }
  static var owner: any DependencyKey.Type { Map.self }
}

/// A key of this product's own that holds what a container was given (members, modules): the
/// graph leaves it out.
package protocol InternalMarker {}

/// A marker key of a collection or a map: the graph leaves it out and names its owner instead.
package protocol MembersMarker: InternalMarker {
  /// The collection or map whose members the marker holds.
  static var owner: any DependencyKey.Type { get }
}

/// The modules registered on a container, in order.
struct ModuleList: Sendable {
  private(set) var ids: Set<ObjectIdentifier> = []
  private(set) var names: [String] = []

  func contains(_ id: ObjectIdentifier) -> Bool { ids.contains(id) }

  mutating func append(_ id: ObjectIdentifier, name: String) {
    ids.insert(id)
    names.append(name)
  }
}

/// The internal marker key that holds the modules registered on a container.
enum RegisteredModules: DependencyKey, InternalMarker {
  static var defaultValue: ModuleList { ModuleList() }
  static var testValue: ModuleList { ModuleList() }
  static var previewValue: ModuleList { ModuleList() }
}

/// The module whose registrations run on this task, for the members it contributes.
enum Registration {
  static let module = TaskLocal<String?>(wrappedValue: nil)
}
