import TinyDependency

/// Runs the shutdowns of a set of built values in reverse dependency order, each object once.
///
/// Keys whose values are the same object (an interface key handing out an implementation key's
/// value) are one node: that object is shut down once, after every value that read any of its
/// keys, and before every value any of its keys read.
enum Shutdown {
  /// One object to shut down: the keys that hold it, and the object.
  private struct Target {
    var keys: [String]
    let value: any DependencyShutdown
  }

  static func run(_ values: [BuiltValue]) async -> ShutdownReport {
    var targets: [ObjectIdentifier: Target] = [:]
    // The node of each key whose value needs a shutdown.
    var nodeOfKey: [ObjectIdentifier: ObjectIdentifier] = [:]
    for built in values {
      guard let value = built.anyValue as? any DependencyShutdown else { continue }
      let key = built.key.id
      let node = type(of: value) is AnyClass ? ObjectIdentifier(value as AnyObject) : key
      nodeOfKey[key] = node
      targets[node, default: Target(keys: [], value: value)].keys
        .append(built.key.name)
    }
    // A node waits for every node that read it, directly or through other keys.
    var readers: [ObjectIdentifier: Set<ObjectIdentifier>] = [:]
    var readBy: [ObjectIdentifier: Set<ObjectIdentifier>] = [:]
    for node in targets.keys { readers[node] = [] }
    for built in values {
      guard let node = nodeOfKey[built.key.id] else { continue }
      for input in built.inputs {
        guard let inputNode = nodeOfKey[input], inputNode != node else { continue }
        readers[inputNode, default: []].insert(node)
        readBy[node, default: []].insert(inputNode)
      }
    }
    func name(_ node: ObjectIdentifier) -> String { targets[node]!.keys.min()! }
    var order: [String] = []
    var failures: [ShutdownReport.Failure] = []
    await withTaskGroup(of: (ObjectIdentifier, ShutdownReport.Failure?).self) { group in
      func launch(_ node: ObjectIdentifier) {
        let target = targets[node]!
        let label = name(node)
        order.append(label)
        group.addTask {
          do {
            try await target.value.shutdown()
            return (node, nil)
          } catch {
            return (node, ShutdownReport.Failure(key: label, error: error))
          }
        }
      }
      let ready = readers.filter { $0.value.isEmpty }.map(\.key)
      for node in ready.sorted(by: { name($0) < name($1) }) { launch(node) }
      while let (node, failure) = await group.next() {
        if let failure { failures.append(failure) }
        var next: [ObjectIdentifier] = []
        for input in readBy[node] ?? [] {
          readers[input]!.remove(node)
          if readers[input]!.isEmpty { next.append(input) }
        }
        for node in next.sorted(by: { name($0) < name($1) }) { launch(node) }
      }
    }
    let shutDown = Set(nodeOfKey.keys)
    let retired = values.filter { built in
      shutDown.contains(built.key.id) || !built.inputs.isDisjoint(with: shutDown)
    }
    return ShutdownReport(
      order: order,
      failures: failures,
      retired: Set(retired.map { $0.key.id })
    )
  }
}
