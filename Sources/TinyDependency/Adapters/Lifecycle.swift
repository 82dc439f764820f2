/// The hook TinyDependencyLifecycle stands on: what async preparation and shutdown may ask of a
/// container, and nothing more. `package`, so that only this package's layers see it.
///
/// A layer above the core can, through it: find a key's value here (set, built, or shared from
/// a scope around), store a value it prepared as a built value, count a key as changed in a
/// scope, retire values it shut down (reads of them stop from then on), ask whether a read is
/// allowed, record the reads of a build it runs, and keep one object of its own beside each
/// container. The core holds no async coordination: builds in flight, waiters, timeouts and
/// shutdown order are the layer's.

extension BuiltValue {
  /// `value`, built for `key` by a build whose reads `trace` kept: the unit the lifecycle
  /// stores and shuts down.
  package init<Value: Sendable>(
    _ value: Value,
    of key: any DependencyKey.Type,
    trace: BuildFrame.Trace
  ) {
    self.init(
      box: Box(value),
      inputs: trace.inputs,
      key: KeyType(key),
      reads: trace.reads,
      hold: trace.hold
    )
  }

  /// The value, as its key's `Value`.
  package func value<Value: Sendable>(as type: Value.Type) -> Value { box.unbox(as: type) }

  /// The identity of this build's value, the same in every container that holds it.
  package var identity: ObjectIdentifier { ObjectIdentifier(box) }

  /// Whether the value was shut down, or its instance ended, so that reads of it stop.
  package var hasEnded: Bool { box.hasEnded }

  /// Marks the value as shut down: reads of it stop from now on, wherever it is held.
  package func endLifetime() { box.endLifetime() }

  /// The value, whatever its type.
  package var anyValue: any Sendable {
    func open<Key: DependencyKey>(_ key: Key.Type) -> any Sendable {
      box.unbox(as: Key.Value.self)
    }
    return open(key.type)
  }
}

extension BuildFrame {
  /// The frame of an async build of `key` in `values`, read by no other build: the keys its
  /// builder reads become its inputs and the edges of the graph, as for a synchronous build.
  package convenience init(key: any DependencyKey.Type, in values: DependencyValues) {
    self.init(
      keyType: key,
      context: values.storage.context,
      parent: nil,
      observer: values.storage.observer
    )
  }
}

/// Stops with a cycle through async builds: `frames`, outermost first, then `key` again.
package func stopWithCycle(_ frames: [BuildFrame], reentering key: any DependencyKey.Type) -> Never
{
  Diagnostics.stopWithCycle(frames, reentering: [key], observer: nil)
}

extension DependencyKey {
  /// Notes, for the build in progress, that this key's value for `context` is its fallback to
  /// the default one.
  package static func noteFallback(in context: DependencyContext) {
    BuildFrame.running?.noteFallback(of: Self.self, in: context)
  }

  /// The key's short name, for messages.
  package static var keyName: String { debugName }
}

extension DependencyValues {
  // MARK: - Builds

  /// This container, recording its reads in `frame`.
  package func recording(in frame: BuildFrame) -> DependencyValues {
    var copy = self
    copy.frame = frame
    return copy
  }

  /// Runs `operation` with this container bound as ``current``, as a builder's task does.
  package func withBound<R>(_ operation: () async throws -> R) async rethrows -> R {
    try await Self.process.bound.withValue(self, operation: operation)
  }

  /// Runs `operation` with this container bound as ``current`` on `isolation`.
  package func withBound<R>(
    isolation: isolated (any Actor)?,
    _ operation: () async throws -> R
  ) async rethrows -> R {
    try await bind(isolation: isolation, operation)
  }

  /// The builds that read the key whose synchronous read is in progress, up to `outer`
  /// (excluded), outermost first.
  package func readers(below outer: BuildFrame) -> [BuildFrame] {
    var chain: [BuildFrame] = []
    var frame = self.frame?.parent
    while let nested = frame, nested !== outer {
      chain.append(nested)
      frame = nested.parent
    }
    return chain.reversed()
  }

  /// While a graph is traced, records that `key` was read before it was prepared and parks the
  /// thread, as for a missing input; otherwise returns.
  package func stopIfTracing(unprepared key: any DependencyKey.Type) {
    // The frame is the key's own (failed) synchronous build; what read it is its parent.
    guard let observer = frame?.observer ?? storage.observer, observer.tracesStops else { return }
    PreparedOnlyKeys.insert(ObjectIdentifier(key))
    let reader = frame?.parent
    reader?.record(key, inputs: [])
    reader?.recordUnfinishedChain()
    observer.stop(missingInput: key)
  }

  // MARK: - Values

  /// The value set on this container for `key`, if any.
  package func overriddenValue(of key: any DependencyKey.Type) -> BuiltValue? {
    let id = ObjectIdentifier(key)
    guard let box = storage.overrides[id] else { return nil }
    return BuiltValue(box: box, inputs: [], key: KeyType(key), reads: [])
  }

  /// The value of `key` built here or shared from a scope around, without building anything.
  package func existingValue(of key: any DependencyKey.Type) -> BuiltValue? {
    storage.existingBuiltValue(for: ObjectIdentifier(key))
  }

  /// Keeps `value` as this container's built value of its key; false, storing nothing, when
  /// the container already has or builds one.
  package func storePrepared(_ value: BuiltValue) -> Bool {
    storage.place(value.key.id, value)
  }

  /// Sets a layer's own marker key on this container without the public setter, so that a
  /// test's scope does not count it as an override the user made.
  package mutating func setInternalMarker<Key: DependencyKey>(_ key: Key.Type, _ value: Key.Value) {
    setOverride(linking: Box(value), for: ObjectIdentifier(key))
  }

  /// The values built or prepared here that the containers this one derives from don't share.
  package var ownBuiltValues: [BuiltValue] { storage.ownBuiltValues }

  /// Marks the values of `keys` as shut down: reads of them stop from now on, here and in every
  /// scope that read them before.
  package func retire(_ keys: Set<ObjectIdentifier>) { storage.endLifetimes(of: keys) }

  /// Stops if `key`'s value was shut down here or in a container this one derives from.
  package func stopIfShutDown<Key: DependencyKey>(_ key: Key.Type) {
    if storage.hasEndedHereOrAbove(ObjectIdentifier(key)) {
      stopReadAfterEnd(Key.self, context: context)
    }
  }

  // MARK: - The layer's own state

  /// A layer's object of type `T` for this container, made by `make` on first use; it lives as
  /// long as the container's storage, which every copy and scope without overrides shares.
  /// With `pinning`, the storage is never merged into a container derived from it.
  package func attachment<T: AnyObject & Sendable>(pinning: Bool = false, _ make: () -> T) -> T {
    storage.attachment(pinning: pinning, make)
  }

  /// A layer's object of type `T` for this container, if one was made.
  package func existingAttachment<T: AnyObject & Sendable>(as type: T.Type) -> T? {
    storage.existingAttachment(type)
  }
}

/// The keys a trace found to be prepared, not built on a read: async keys, for the graph's nodes.
package enum PreparedOnlyKeys {
  private static let ids = Locked<Set<ObjectIdentifier>>([])

  static func insert(_ id: ObjectIdentifier) { _ = ids.withLock { $0.insert(id) } }

  /// Whether a trace found the key with this identity to be an async key.
  package static func contains(_ id: ObjectIdentifier) -> Bool {
    ids.withLock { $0.contains(id) }
  }
}

extension DependencyValues {
  /// Ends this container's scope instance, once: marks it ended (runs and reads of its scoped
  /// values stop) and takes it from the instance around it, under the instance's lock; then,
  /// with no lock held, keeps what `make` returns, given the instances still open inside it
  /// (latest first) and the values of its scope built below it, one array per container,
  /// deepest first. Later calls return that. Nil when the container is no scope instance, or,
  /// with `inProgress` set, while the first call's `make` still runs: ask again later.
  package func endScopeInstance<T: AnyObject & Sendable>(
    inProgress: inout Bool,
    _ make: ([DependencyValues], [[BuiltValue]]) -> T
  ) -> T? {
    guard let instance = storage.instance else { return nil }
    // Under the spin lock: a mark and two swaps, nothing more. Not a tuple: a tuple of these
    // types costs a metadata lookup at each end.
    var (first, children, below) = (false, [DependencyValues](), [ScopeInstance.BuiltBelow]())
    // The closure returns an existential, not `T?`: `Optional<T>` has no metadata until run
    // time, and looking it up would cost more than the rest of the end.
    let earlier = instance.withState { state -> (any AnyObject & Sendable)? in
      if let ending = state.ending { return ending }
      if !state.ended {
        (state.ended, first) = (true, true)
        children = state.children
        below = state.builtBelow
        (state.children, state.builtBelow) = ([], [])
      }
      return nil
    }
    if let earlier { return earlier as? T }
    guard first else {
      inProgress = true
      return nil
    }
    var groups: [[BuiltValue]] = []
    if !below.isEmpty {
      var bySerial: [UInt64: (depth: Int, values: [BuiltValue])] = [:]
      for built in below {
        bySerial[built.serial, default: (built.depth, [])].values.append(built.value)
      }
      groups = bySerial.values.sorted { $0.depth > $1.depth }.map(\.values)
    }
    let made = make(children.reversed(), groups)
    instance.withState { $0.ending = made }
    instance.parent?.withState { $0.children.removeAll { $0.storage === storage } }
    return made
  }
}

extension DependencyStorage {
  /// The values built here that the storages this one derives from don't share, and that the
  /// user did not hand in.
  var ownBuiltValues: [BuiltValue] {
    // A storage that holds no value: no walk through the ones above.
    guard state.lockedIfMade != nil, case let own = builtValues, !own.isEmpty else { return [] }
    var inherited = existingAttachment(HandedInValues.self)?.boxes ?? []
    var node = parent
    while let ancestor = node {
      for built in ancestor.builtValues { inherited.insert(ObjectIdentifier(built.box)) }
      node = ancestor.parent
    }
    return own.filter { !inherited.contains(ObjectIdentifier($0.box)) }
  }
}
