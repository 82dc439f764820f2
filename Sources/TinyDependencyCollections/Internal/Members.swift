package import TinyDependency

/// The members contributed to one collection or map in a container, in the order they came.
///
/// Not generic: a module's registration adds to it without asking the runtime for a generic
/// type's metadata per member (a lookup that cost more than the rest of a contribution).
struct MemberList: Sendable {
  /// One member: its key, its map key (nil for an ordered collection), and the module that
  /// contributed it.
  struct Member: Sendable {
    let key: any DependencyKey.Type
    let mapKey: (any Hashable & Sendable)?
    /// The module's type: its name is made only when something shows it.
    let module: Any.Type?

    var id: ObjectIdentifier { ObjectIdentifier(key) }
    var name: String { _typeName(key, qualified: false) }
    var moduleName: String? { module.map { _typeName($0, qualified: false) } }
  }

  var members: [Member] = []

  /// The members as the graph and the checks see them.
  var contributions: [Contribution] {
    members.map {
      Contribution(key: $0.key, module: $0.moduleName, mapKey: $0.mapKey.map { AnyHashable($0) })
    }
  }
}

/// A key of this product's own that holds what a container was given (members, modules): the
/// graph leaves it out.
package protocol InternalMarker {}

/// A marker key of a collection or a map: the graph leaves it out and names its owner instead.
package protocol MembersMarker: InternalMarker {
  /// The collection or map whose members the marker holds.
  static var owner: any DependencyKey.Type { get }
}

/// The marker keys of this product, which hold member lists.
protocol MemberListMarker: MembersMarker, DependencyKey where Value == MemberList {}

extension MemberListMarker {
  static var defaultValue: MemberList { MemberList() }
  static var testValue: MemberList { MemberList() }
  static var previewValue: MemberList { MemberList() }

  /// Sets `list` as this marker's value in `values`.
  static func set(_ list: MemberList, in values: inout DependencyValues) {
    values.setInternalMarker(Self.self, list)
  }
}

/// The internal marker key that holds a collection's members, set on a container as an input
/// of the collection's build: a scope that contributes builds the collection again there.
enum CollectionMembers<Collection: DependencyCollectionKey>: MemberListMarker {
  static var owner: any DependencyKey.Type { Collection.self }
}

/// The internal marker key that holds a map's members.
enum MapMembers<Map: DependencyMapKey>: MemberListMarker {
  static var owner: any DependencyKey.Type { Map.self }
}

/// The modules registered on a container, in order.
struct ModuleList: Sendable {
  private var ids: Set<ObjectIdentifier> = []
  private var types: [Any.Type] = []

  /// The modules' names, made when something shows them.
  var names: [String] { types.map { _typeName($0, qualified: false) } }

  /// Adds `module`; false when it was there already.
  mutating func insert(_ module: Any.Type) -> Bool {
    guard ids.insert(ObjectIdentifier(module)).inserted else { return false }
    types.append(module)
    return true
  }
}

/// The internal marker key that holds the modules registered on a container.
enum RegisteredModules: DependencyKey, InternalMarker {
  static var defaultValue: ModuleList { ModuleList() }
  static var testValue: ModuleList { ModuleList() }
  static var previewValue: ModuleList { ModuleList() }
}
