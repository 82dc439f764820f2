internal import TinyDependency
internal import TinyDependencyCollections
internal import TinyDependencyGraph

extension DependencyCheck {
  /// Collections and maps with no member (unless they allow it), maps with two members under
  /// one map key, and listed members that nothing contributed, as the trace's container had
  /// them once `configure` returned.
  static func collectionFindings(
    _ keys: [any DependencyKey.Type],
    traced: DependencyGraph.TraceDetails
  ) -> [DependencyFinding] {
    guard let values = traced.configured else { return [] }
    var findings: [DependencyFinding] = []
    for node in traced.graph.nodes {
      guard case .collection(let isMap, let allowsEmpty)? = CollectionRole(of: node.keyType),
        let members = values.contributions(to: node.keyType)
      else { continue }
      if members.isEmpty && !allowsEmpty {
        findings.append(empty(node.name, isMap: isMap))
      }
      var first: [AnyHashable: String] = [:]
      for member in members {
        guard let mapKey = member.mapKey else { continue }
        let name = readableName(member.key)
        if let earlier = first[mapKey] {
          findings.append(duplicate(node.name, mapKey: mapKey, earlier, name))
        } else {
          first[mapKey] = name
        }
      }
    }
    // Where key discovery works every member is listed: one its collection lacks is forgotten.
    for key in keys {
      guard case .member(let owner)? = CollectionRole(of: key),
        let members = values.contributions(to: owner),
        !members.contains(where: { $0.key == key })
      else { continue }
      findings.append(uncontributed(readableName(key), of: readableName(owner)))
    }
    return findings
  }

  /// The key's short name, the same in every run, as the graph shows it.
  private static func readableName(_ key: any DependencyKey.Type) -> String {
    readableTypeName(key, qualified: false)
  }

  private static func empty(_ name: String, isMap: Bool) -> DependencyFinding {
    let fix =
      "Contribute its members with `values.contribute(Member.self)` in a module the entry point "
      + "and the check's `configure` register, or declare `static var allowsEmpty: Bool { true }` "
      + "on \(name)."
    return DependencyFinding(
      key: name,
      kind: .emptyCollection,
      path: [name],
      message: "is a \(isMap ? "map" : "collection") that nothing contributed to: reading it "
        + "stops the app. " + fix,
      fix: fix
    )
  }

  private static func duplicate(
    _ name: String,
    mapKey: AnyHashable,
    _ first: String,
    _ second: String
  ) -> DependencyFinding {
    let fix = "Give \(first) or \(second) another `mapKey`, or contribute only one of them."
    return DependencyFinding(
      key: name,
      kind: .duplicateMapKey,
      path: [name, first, second],
      message: "has two members with the map key \(String(reflecting: mapKey.base)): \(first) and "
        + "\(second); neither replaces the other, and reading the map stops the app. " + fix,
      fix: fix
    )
  }

  private static func uncontributed(_ name: String, of owner: String) -> DependencyFinding {
    let fix =
      "Add `values.contribute(\(name).self)` to the module that owns it, and register that "
      + "module at the entry point (and in the check's `configure`); or delete \(name)."
    return DependencyFinding(
      key: name,
      kind: .uncontributedMember,
      path: [owner, name],
      message: "is a member of \(owner) that no registered module contributes: \(owner) is "
        + "read without it. " + fix,
      fix: fix
    )
  }
}
