/// A scope type as a value: its identity, name and parent, for storages and messages.
///
/// `@unchecked Sendable`: a metatype is an immutable, process-wide identity.
struct ScopeType: @unchecked Sendable, Hashable {
  let type: any DependencyScope.Type

  init(_ type: any DependencyScope.Type) { self.type = type }

  var name: String { _typeName(type, qualified: false) }
  /// The scope it is begun in; nil for one begun at the root.
  var parent: ScopeType? {
    let parent = type.parentScope
    return parent == RootScope.self ? nil : ScopeType(parent)
  }

  /// Whether an instance of this scope ends after every instance of `inner` (shared outlives
  /// every scope, a scope the scopes begun inside it).
  static func outlives(_ lifetime: DependencyLifetime, _ inner: ScopeType) -> Bool {
    switch lifetime.kind {
    case .shared: return true
    case .transient, .input: return false
    case .scoped(let outer):
      var node = inner.parent
      while let scope = node, scope != outer { node = scope.parent }
      return node != nil
    }
  }

  static func == (lhs: ScopeType, rhs: ScopeType) -> Bool { lhs.type == rhs.type }
  func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(type)) }
}

extension DependencyScope {
  static var parentScope: any DependencyScope.Type { Parent.self }
}

/// An open (or ended) instance of a scope: the mark of the storage its values are built in.
///
/// `Sendable`: the scope and parent are immutable; `state` is behind its lock.
final class ScopeInstance: Sendable {
  struct State {
    var ended = false
    /// The instances begun inside this one that are still open, oldest first.
    var children: [DependencyValues] = []
    /// What TinyDependencyLifecycle's `end()` keeps: the first end's outcome.
    var ending: (any AnyObject & Sendable)?
  }

  let scope: ScopeType
  /// The nearest instance around this one, which ends it first when it ends.
  let parent: ScopeInstance?
  let state = Locked(State())

  /// An instance of `scope` begun in `storage`; stops if its parent scope has no open instance
  /// there, or the instance around is ended.
  init(_ scope: ScopeType, in storage: DependencyStorage) {
    self.scope = scope
    self.parent = storage.nearestInstance(where: { _ in true })
    if let required = scope.parent,
      storage.nearestInstance(where: { $0.scope == required }) == nil
    {
      Diagnostics.stop(
        """
        TinyDependency: \(scope.name) was begun where no instance of its parent scope \
        \(required.name) is open. Fix: begin it inside a \(required.name) instance \
        (`session.run { DependencyValues.current.beginScope(\(scope.name).self) }`), or \
        declare `typealias Parent = RootScope` in \(scope.name).
        """)
    }
    parent?.stopIfEnded()
  }

  var isEnded: Bool { state.withLock { $0.ended } }

  /// Stops when the instance was ended: nothing runs or is built in it any more.
  func stopIfEnded(reading key: String? = nil) {
    guard isEnded else { return }
    let what = key.map { "\($0) (scoped to \(scope.name)) was read" } ?? "run"
    Diagnostics.stop(
      """
      TinyDependency: \(what) after its \(scope.name) instance ended; what it held is gone. \
      Fix: finish the work of an instance before `end()`, and begin a new one with `beginScope`.
      """)
  }
}

extension DependencyStorage {
  /// Marks this storage, not shared yet, as `instance`, which the instance around it ends.
  func begin(_ instance: ScopeInstance) {
    self.instance = instance
    freeze()
    instance.parent?.state.withLock { $0.children.append(DependencyValues(storage: self)) }
  }

  /// The nearest instance at or above this storage that `matches`.
  func nearestInstance(where matches: (ScopeInstance) -> Bool) -> ScopeInstance? {
    owner(where: matches)?.instance
  }

  /// The nearest storage at or above this one whose instance `matches`.
  func owner(where matches: (ScopeInstance) -> Bool) -> DependencyStorage? {
    var node: DependencyStorage? = self
    while let storage = node {
      if let instance = storage.instance, matches(instance) { return storage }
      node = storage.parent
    }
    return nil
  }

  /// The storage that keeps `Key`'s values of `scope` for reads here: the nearest instance of
  /// it. Outside any, the read stops, or in tests records an issue and builds in the root (nil).
  func owner<Key: DependencyKey>(of scope: ScopeType, for key: Key.Type) -> DependencyStorage? {
    if let owner = owner(where: { $0.scope == scope }) {
      owner.instance?.stopIfEnded(reading: Key.debugName)
      return owner
    }
    guard recorder == nil else { return nil }
    let message = """
      \(Key.debugName) is scoped to \(scope.name), but was read where no instance of \
      \(scope.name) is open, in the \(context) context. Fix: read it inside one: \
      `DependencyValues.current.beginScope(\(scope.name).self)` then `run { … }`, or \
      `withDependencyScope(\(scope.name).self)`.
      """
    if context == .test { IssueReporter.report(message) } else { Diagnostics.stop(message) }
    return nil
  }
}

extension Diagnostics {
  /// Writes `message` to standard error and stops.
  static func stop(_ message: String) -> Never {
    let message = message.hasPrefix("TinyDependency") ? message : "TinyDependency: " + message
    SystemInterface.writeToStandardError(message)
    fatalError(message)
  }

  /// Reports that the build of `frame` reads `key`, which lives shorter: stops, or in tests
  /// records an issue. While tracing, the graph and validator report it instead.
  static func checkCaptive(_ frame: BuildFrame, reading key: any DependencyKey.Type) {
    guard frame.recorder == nil, case .scoped(let inner) = key.lifetime.kind,
      ScopeType.outlives(frame.keyType.lifetime, inner)
    else { return }
    let outer = frame.keyType
    let path = (frame.activeReaderChain.map(\.keyName) + [_typeName(key, qualified: false)])
    let message = """
      captive dependency in the \(frame.context) context: \(frame.keyName) \
      (\(outer.lifetime)) reads \(path.last!) (\(key.lifetime)) while it is built: \
      \(path.joined(separator: " -> ")). \(frame.keyName) outlives every \(inner.name) \
      instance, so it would keep the first one's \(path.last!). Fix: declare \(frame.keyName) \
      `.scoped(\(inner.name).self)`, or read \(path.last!) where it is used, not while \
      \(frame.keyName) is built.
      """
    if frame.context == .test { IssueReporter.report(message) } else { stop(message) }
  }
}
