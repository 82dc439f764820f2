import TinyDependency

/// The registration of a module in progress on this thread: the outermost module's, with the
/// module whose `register(_:)` runs now. Contributions are kept here and written to the
/// container once per collection when the outermost module returns, so that a module of ten
/// members costs one write of its collection's list, not ten copies of a growing one.
///
/// `@unchecked Sendable`: a module's `register(_:)` is synchronous, and only the thread that
/// runs it reaches the object, through the task-local bound around the call.
final class Registration: @unchecked Sendable {
  /// The registration bound around the outermost module's `register(_:)`.
  static let current = TaskLocal<Registration?>(wrappedValue: nil)

  /// The module whose `register(_:)` runs now.
  var module: Any.Type
  /// The container's modules, with those registered since the outermost one began.
  var modules: ModuleList
  /// The lists being added to, by their collection, in the order they were first added to.
  private var pending: [ObjectIdentifier: Pending] = [:]
  private var order: [ObjectIdentifier] = []

  init(module: Any.Type, modules: ModuleList) {
    self.module = module
    self.modules = modules
  }

  /// Adds `member` to the list `marker` holds for `owner`, read from `values` the first time;
  /// a member there already is reported at `site` and kept once.
  func add(
    _ member: MemberList.Member,
    to marker: () -> any MemberListMarker.Type,
    of owner: any DependencyKey.Type,
    at site: SourceSite,
    in values: DependencyValues
  ) {
    let id = ObjectIdentifier(owner)
    let list: Pending
    if let found = pending[id] {
      list = found
    } else {
      let marker = marker()
      list = Pending(owner: owner, marker: marker, list: values.markerValue(marker))
      pending[id] = list
      order.append(id)
    }
    list.add(member, at: site)
  }

  /// Writes the modules and each list to `values`: one write each. A list whose collection was
  /// read in `values` meanwhile is not applied, and each of its new members is reported.
  func finish(into values: inout DependencyValues) {
    values.setInternalMarker(RegisteredModules.self, modules)
    for id in order { pending[id]!.write(into: &values) }
  }
}

/// The list a marker holds, with the members added to it and where each was added.
final class Pending {
  let owner: any DependencyKey.Type
  let marker: any MemberListMarker.Type
  var list: MemberList
  var ids: Set<ObjectIdentifier>
  /// The members added here and where, named only if they are reported.
  var added: [(key: any DependencyKey.Type, site: SourceSite)] = []

  init(owner: any DependencyKey.Type, marker: any MemberListMarker.Type, list: MemberList) {
    self.owner = owner
    self.marker = marker
    self.list = list
    self.ids = Set(list.members.map(\.id))
    // A module adds a handful: grow once, not at one, two, four and eight members.
    self.list.members.reserveCapacity(list.members.count + 16)
    self.added.reserveCapacity(16)
  }

  func add(_ member: MemberList.Member, at site: SourceSite) {
    guard ids.insert(member.id).inserted else {
      let earlier = list.members.first { $0.id == member.id }
      reportTwice(member.name, owner: owner, by: earlier?.moduleName, at: site)
      return
    }
    list.members.append(member)
    added.append((member.key, site))
  }

  func write(into values: inout DependencyValues) {
    guard values.existingValue(of: owner) == nil else {
      for member in added {
        reportLate(_typeName(member.key, qualified: false), owner: owner, at: member.site)
      }
      return
    }
    marker.set(list, in: &values)
  }
}

/// Reports a member contributed a second time.
func reportTwice(
  _ name: String,
  owner: any DependencyKey.Type,
  by module: String?,
  at site: SourceSite
) {
  let by = module.map { " by \($0)" } ?? ""
  IssueReporter.report(
    """
    \(name) was contributed to \(_typeName(owner, qualified: false)) twice (first\(by)); it is \
    kept once, in its first place. Fix: contribute it in one module, and register that module \
    where the others need it (a module registered twice runs once).
    """,
    at: site
  )
}

/// Reports a member contributed after its collection was read.
func reportLate(_ name: String, owner: any DependencyKey.Type, at site: SourceSite) {
  let ownerName = _typeName(owner, qualified: false)
  IssueReporter.report(
    """
    contribute(\(name).self) came after \(ownerName) was read in this container, so it was \
    not applied: a value already handed out never changes. Fix: contribute members before \
    anything reads \(ownerName): in a module that the entry point registers \
    (`prepareDependencies { $0.register(AppModule.self) }`), on a server's root before it \
    serves, or in a test's trait (`.dependencies { $0.register(…) }`).
    """,
    at: site
  )
}
