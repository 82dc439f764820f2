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
    for member in list.members {
      elements.append(read(member.key, as: Collection.Element.self, in: values))
    }
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
    // Every map key first, so that a duplicate is found before any member is built.
    var first: [Map.MapKey: any DependencyKey.Type] = [:]
    var kept: [(mapKey: Map.MapKey, key: any DependencyKey.Type)] = []
    for member in list.members {
      // `contribute` made it from the member's `Map.MapKey`.
      let mapKey = member.mapKey as! Map.MapKey
      if let earlier = first[mapKey] {
        if !values.isTraced {
          let earlierName = _typeName(earlier, qualified: false)
          stopOrRecord(duplicateMessage(Map.self, mapKey: mapKey, earlierName, member.name))
        }
        continue
      }
      first[mapKey] = member.key
      kept.append((mapKey, member.key))
    }
    var entries: [Map.MapKey: Map.Element] = [:]
    entries.reserveCapacity(kept.count)
    for member in kept {
      entries[member.mapKey] = read(member.key, as: Map.Element.self, in: values)
    }
    return entries
  }

  /// The value of `key` in `values`, read as the key it is: a member, whose `Value` is
  /// `Element` (its collection's, which `contribute` requires).
  static func read<Element>(
    _ key: any DependencyKey.Type,
    as _: Element.Type,
    in values: DependencyValues
  ) -> Element {
    func value<Key: DependencyKey>(_ key: Key.Type) -> Element {
      let value = values[key]
      // The same type: a member's `Value` is its collection's `Element`.
      return unsafeBitCast(value, to: Element.self)
    }
    return value(key)
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
  /// member is there already; either is reported at `site`. Inside a module's `registration` the
  /// member is kept aside, and the list written once when the outermost module returns; the
  /// marker's type is made only when the list is first read.
  mutating func add(
    _ member: MemberList.Member,
    to marker: @autoclosure () -> any MemberListMarker.Type,
    of owner: any DependencyKey.Type,
    at site: SourceSite,
    in registration: Registration?
  ) {
    if let registration {
      return registration.add(member, to: marker, of: owner, at: site, in: self)
    }
    if existingValue(of: owner) != nil { return reportLate(member.name, owner: owner, at: site) }
    let marker = marker()
    var list = markerValue(marker)
    if let earlier = list.members.first(where: { $0.id == member.id }) {
      return reportTwice(member.name, owner: owner, by: earlier.moduleName, at: site)
    }
    list.members.append(member)
    marker.set(list, in: &self)
  }
}
