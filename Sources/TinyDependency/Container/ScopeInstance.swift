/// A scope type as a value: its identity, name and parent, for storages and messages.
///
/// `@unchecked Sendable`: a metatype is an immutable, process-wide identity.
struct ScopeType: @unchecked Sendable, Hashable {
  let type: any DependencyScope.Type

  init(_ type: any DependencyScope.Type) { self.type = type }

  var name: String { _typeName(type, qualified: false) }
  /// The scope it is begun in; nil for one begun at the root.
  var parent: ScopeType? { type.parentScope == RootScope.self ? nil : ScopeType(type.parentScope) }

  static func == (lhs: ScopeType, rhs: ScopeType) -> Bool { lhs.type == rhs.type }
  func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(type)) }
}

extension DependencyScope {
  static var parentScope: any DependencyScope.Type { Parent.self }
}

/// An open (or ended) instance of a scope: the mark of the storage its values are built in.
///
/// `@unchecked Sendable`: the scope and parent are immutable; `state` is only touched inside
/// `lock.withLock` (``withState(_:)``), beside its lock so that the instance is one allocation.
final class ScopeInstance: @unchecked Sendable {
  /// A value of the instance's scope built in a storage below it, with that storage's depth (a
  /// struct: a tuple's metadata is looked up at run time, on every end).
  struct BuiltBelow {
    let depth: Int
    let serial: UInt64
    let value: BuiltValue
  }

  struct State {
    var ended = false
    /// The instances begun inside this one that are still open, oldest first.
    var children: [DependencyValues] = []
    /// What TinyDependencyLifecycle's `end()` keeps: the first end's outcome.
    var ending: (any AnyObject & Sendable)?
    /// Values of this instance's scope built in a container below it that set one of their
    /// inputs (not an instance itself): this instance ends them too. With each, the depth of
    /// the storage it was built in, and that storage's serial.
    var builtBelow: [BuiltBelow] = []
  }

  let scope: ScopeType
  /// The nearest instance around this one, which ends it first when it ends.
  let parent: ScopeInstance?
  // Only touched inside `lock.withLock`: no dynamic exclusivity check needed.
  @exclusivity(unchecked)
  private var state = State()
  private let lock = SpinLock()

  /// Runs `body` with the lock held and the state borrowed mutably; `body` runs no user code.
  func withState<R>(_ body: (inout State) -> R) -> R { lock.withLock { body(&state) } }

  /// An instance of `scope` begun in `storage`; stops if its parent scope has no open instance
  /// there, or the instance around is ended.
  init(_ scope: ScopeType, in storage: DependencyStorage) {
    (self.scope, parent) = (scope, storage.owner { _ in true }?.instance)
    if let required = scope.parent, storage.owner(where: { $0.scope == required }) == nil {
      stopWithMessage(
        "TinyDependency: \(scope.name) was begun where no instance of its parent scope "
          + "\(required.name) is open. Fix: begin it inside a \(required.name) instance, or "
          + "declare `typealias Parent = RootScope` in \(scope.name)."
      )
    }
    if let parent, parent.isEnded {
      let (name, around) = (scope.name, parent.scope.name)
      stopWithMessage(
        "TinyDependency: \(name) was begun in a \(around) instance that already ended "
          + "(`beginScope(\(name).self)` on its values); what it held is gone. Fix: begin "
          + "\(name) before the \(around) instance's `end()`, or in a new \(around) instance."
      )
    }
  }

  var isEnded: Bool { withState { $0.ended } }

  /// Stops when the instance was ended: nothing runs or is built in it any more.
  func stopIfEnded(reading key: String? = nil) {
    guard isEnded else { return }
    let what = key.map { "\($0) (scoped to \(scope.name)) was read" } ?? "run"
    stopWithMessage(
      "TinyDependency: \(what) after its \(scope.name) instance ended; what it held is gone. "
        + "Fix: finish an instance's work before `end()`; begin a new one with `beginScope`."
    )
  }

  /// Keeps `built`, a value of this instance's scope just built in `storage`: one built below
  /// the instance's own storage is the instance's to end. One built after the instance ended
  /// is ended, handed to the end's outcome (``InstanceEnding``), and its read stops.
  func keep(_ built: BuiltValue, builtIn storage: DependencyStorage, owner: DependencyStorage) {
    // Below the owner, in a storage that isn't an instance (which ends its own), and not
    // shared up to the owner.
    let below =
      storage !== owner && storage.instance == nil
      && owner.builtValue(for: built.key.id)?.box !== built.box
    let depth = below ? storage.depth : 0
    var (ended, ending): (Bool, (any AnyObject & Sendable)?) = (false, nil)
    // Ended, but its outcome still being made (a few instructions, outside the lock): ask again.
    while withState({ state in
      guard state.ended else {
        if below {
          state.builtBelow.append(BuiltBelow(depth: depth, serial: storage.serial, value: built))
        }
        return false
      }
      (ended, ending) = (true, state.ending)
      return ending == nil
    }) {
      SystemInterface.yieldThread()
    }
    guard ended else { return }
    built.box.endLifetime()
    (ending as? any InstanceEnding)?.arrivedAfterEnd(built, owner: DependencyValues(storage: owner))
    stopIfEnded(reading: built.key.name)
  }
}

extension DependencyStorage {
  /// Marks this storage, not shared yet, as `instance`, which the instance around it ends.
  func begin(_ instance: ScopeInstance) {
    self.instance = instance
    freeze()
    instance.parent?.withState { $0.children.append(DependencyValues(storage: self)) }
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
    let message =
      "\(Key.debugName) is scoped to \(scope.name), but was read where no instance of "
      + "\(scope.name) is open, in the \(context) context. Fix: read it inside one: "
      + "`DependencyValues.current.beginScope(\(scope.name).self)` then `run { … }`, or "
      + "`withDependencyScope(\(scope.name).self)`."
    Diagnostics.report(message, unlessTracedBy: observer, context: context)
    return nil
  }
}

extension Diagnostics {
  /// Reports `message`: as an issue in the test context, else by stopping, when `stops`.
  static func report(
    _ message: String,
    unlessTracedBy observer: (any DependencyObserver)?,
    context: DependencyContext
  ) {
    guard observer?.tracesStops != true else { return }
    if context == .test { return IssueReporter.report(message) }
    stopWithMessage("TinyDependency: " + message)
  }

  /// Reports that the build of `frame` reads `key`, which lives shorter: stops, or in tests
  /// records an issue. A transient build passes the value on to whatever read it, and a
  /// factory's product belongs to its caller (a cached one to the calling container's table),
  /// so the builds they were made for are checked instead, out to the first that is neither.
  /// While tracing, the graph and validator report it instead.
  static func checkCaptive(_ frame: BuildFrame, reading key: any DependencyKey.Type) {
    guard case .scoped(let inner) = key.lifetime.kind else { return }
    var holder = frame
    var through: [BuildFrame] = []
    while holder.isProduct || !holder.keyType.lifetime.holdsCaptive(key.lifetime) {
      guard holder.isProduct || holder.keyType.lifetime.kind == .transient,
        let reader = holder.parent
      else { return }
      through.insert(holder, at: 0)
      holder = reader
    }
    let (outer, name) = (holder.keyName, _typeName(key, qualified: false))
    let path = (frame.activeReaderChain.map(\.keyName) + [name]).joined(separator: " -> ")
    let via = through.map { "\($0.keyName) (\($0.keyType.lifetime))" }
    let message =
      "captive dependency in the \(frame.context) context: \(outer) "
      + "(\(holder.keyType.lifetime)) reads \(name) (\(key.lifetime))"
      + (via.isEmpty ? "" : " through " + via.joined(separator: ", "))
      + " while it is built: \(path). "
      + "It outlives every \(inner.name) instance, so it would keep the first one's \(name). "
      + "Fix: declare \(outer) `.scoped(\(inner.name).self)`, or read \(name) where it is used."
    report(message, unlessTracedBy: frame.observer, context: frame.context)
  }
}
