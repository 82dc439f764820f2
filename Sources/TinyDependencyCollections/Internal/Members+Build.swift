import TinyDependency

/// How a collection and a map are built from their members in the container being read.
enum Members {
  /// The values of `Collection`'s members in the bound container, each read as its own key.
  static func elements<Collection: DependencyCollectionKey>(
    of collection: Collection.Type
  ) -> [Collection.Element] {
    let values = DependencyValues.current
    let list = values[CollectionMembers<Collection>.self]
    if list.members.isEmpty && !Collection.allowsEmpty {
      // A trace (the graph's, the checks') goes on: the checks report it as a finding.
      if !values.isTraced { stopOrRecord(emptyMessage(Collection.self, context: values.context)) }
      return []
    }
    var elements: [Collection.Element] = []
    elements.reserveCapacity(list.members.count)
    for member in list.members { elements.append(member.read(values)) }
    return elements
  }

  /// The values of `Map`'s members in the bound container by their map keys; two members with
  /// one map key are a mistake, reported before any member is built.
  static func entries<Map: DependencyMapKey>(of map: Map.Type) -> [Map.MapKey: Map.Element] {
    let values = DependencyValues.current
    let list = values[MapMembers<Map>.self]
    if list.members.isEmpty && !Map.allowsEmpty {
      if !values.isTraced { stopOrRecord(emptyMessage(Map.self, context: values.context)) }
      return [:]
    }
    var first: [Map.MapKey: String] = [:]
    var kept: [MemberList<Map.MapKey, Map.Element>.Member] = []
    for member in list.members {
      if let earlier = first[member.tag] {
        if !values.isTraced {
          stopOrRecord(duplicateMessage(Map.self, mapKey: member.tag, earlier, member.name))
        }
        continue
      }
      first[member.tag] = member.name
      kept.append(member)
    }
    var entries: [Map.MapKey: Map.Element] = [:]
    entries.reserveCapacity(kept.count)
    for member in kept { entries[member.tag] = member.read(values) }
    return entries
  }

  static func emptyMessage(_ key: any DependencyKey.Type, context: DependencyContext) -> String {
    let name = _typeName(key, qualified: false)
    let kind = key is any DependencyMapKey.Type ? "map (DependencyMapKey)" : "collection"
    return """
      TinyDependency: \(name) is a \(kind) with no member in the \(context) context: nothing \
      contributed to it in this container, or in the scopes it derives from.
      Fix: contribute its members before it is read, with `values.contribute(Member.self)` in a \
      DependencyModule's register(_:) that the entry point registers (`prepareDependencies { \
      $0.register(AppModule.self) }`; in a test, `.dependencies { $0.register(…) }`). If no \
      member is a valid state, declare `static var allowsEmpty: Bool { true }` on \(name).
      """
  }

  static func duplicateMessage<MapKey>(
    _ key: any DependencyKey.Type,
    mapKey: MapKey,
    _ first: String,
    _ second: String
  ) -> String {
    let name = _typeName(key, qualified: false)
    return """
      TinyDependency: \(name) has two members with the map key \(String(reflecting: mapKey)): \
      \(first) and \(second). A map key names one member; neither replaces the other.
      Fix: give one of them another `mapKey`, or contribute only one of them.
      """
  }
}

/// Stops with `message`; inside a running test, records it as the test's issue instead.
func stopOrRecord(_ message: String) {
  if let router = IssueReporter.router, router.record(message, at: nil) { return }
  stopWithMessage(message)
}

extension DependencyValues {
  /// Whether a trace (a graph's, a check's) reads this container: it reports what it finds.
  var isTraced: Bool { observer?.tracesStops ?? false }

  /// The value of a layer's marker key here, set or shared from around, without building it.
  func markerValue<Marker: DependencyKey>(_ marker: Marker.Type) -> Marker.Value {
    let found = overriddenValue(of: marker) ?? existingValue(of: marker)
    return found?.value(as: Marker.Value.self) ?? Marker.defaultValue
  }

  /// Adds `member` to the list `marker` holds for `owner`, unless `owner` was read here or the
  /// member is there already; either is reported at `site`.
  mutating func add<Marker: DependencyKey, Tag: Sendable, Element: Sendable>(
    _ member: MemberList<Tag, Element>.Member,
    to marker: Marker.Type,
    of owner: any DependencyKey.Type,
    at site: SourceSite
  ) where Marker.Value == MemberList<Tag, Element> {
    let ownerName = _typeName(owner, qualified: false)
    if existingValue(of: owner) != nil {
      IssueReporter.report(
        """
        contribute(\(member.name).self) came after \(ownerName) was read in this container, so \
        it was not applied: a value already handed out never changes. Fix: contribute members \
        before anything reads \(ownerName): in a module that the entry point registers \
        (`prepareDependencies { $0.register(AppModule.self) }`), on a server's root before it \
        serves, or in a test's trait (`.dependencies { $0.register(…) }`).
        """,
        at: site
      )
      return
    }
    var list = markerValue(marker)
    if let earlier = list.members.first(where: { $0.id == member.id }) {
      let by = earlier.module.map { " by \($0)" } ?? ""
      IssueReporter.report(
        """
        \(member.name) was contributed to \(ownerName) twice (first\(by)); it is kept once, \
        in its first place. Fix: contribute it in one module, and register that module \
        where the others need it (a module registered twice runs once).
        """,
        at: site
      )
      return
    }
    list.members.append(member)
    setInternalMarker(marker, list)
  }
}
