/// The hook TinyDependencyLifecycle stands on: what async preparation and shutdown may ask of a
/// container, and nothing more. `package`, so that only this package's layers see it.
///
/// A layer above the core can, through it: find a key's value here (set, built, or shared from
/// a scope around), store a value it prepared as a built value, count a key as changed in a
/// scope, retire values it shut down (reads of them stop from then on), ask whether a read is
/// allowed, record the reads of a build it runs, and keep one object of its own beside each
/// container. The core holds no async coordination: builds in flight, waiters, timeouts and
/// shutdown order are the layer's.

/// A value a container holds, with what its build read: the unit the lifecycle stores and
/// shuts down.
package struct PreparedValue: Sendable {
  let built: BuiltValue

  init(_ built: BuiltValue) { self.built = built }

  /// `value`, built for `key` by a build whose reads `record` kept.
  package init<Value: Sendable>(
    _ value: Value,
    of key: any DependencyKey.Type,
    record: BuildRecord.Trace
  ) {
    built = BuiltValue(
      box: Box(value),
      inputs: record.inputs,
      key: KeyType(key),
      reads: record.reads,
      hold: record.hold
    )
  }

  /// The value, as its key's `Value`.
  package func value<Value: Sendable>(as type: Value.Type) -> Value { built.box.unbox(as: type) }

  /// The value, whatever its type.
  package var anyValue: any Sendable {
    func open<Key: DependencyKey>(_ key: Key.Type) -> any Sendable {
      built.box.unbox(as: Key.Value.self)
    }
    return open(built.key.type)
  }

  /// Every key the build read, directly or through the keys it read.
  package var inputs: Set<ObjectIdentifier> { built.inputs }
  /// The key the value is held under.
  package var key: any DependencyKey.Type { built.key.type }
}

/// The record of one async build: the keys its builder reads become its inputs and the edges
/// of the graph, as they do for a synchronous build.
package struct BuildRecord: Sendable {
  let frame: BuildFrame

  /// What a finished build read.
  package struct Trace: Sendable {
    let inputs: Set<ObjectIdentifier>
    let reads: [KeyType]
    let hold: ScopeHold
    /// Whether the key's value for the context was the protocol's fallback to its default.
    package let fellBack: Bool
  }

  /// A record for a build of `key` in `values`, read by no other build.
  package init(key: any DependencyKey.Type, in values: DependencyValues) {
    frame = BuildFrame(
      keyType: key,
      context: values.storage.context,
      parent: nil,
      recorder: values.storage.recorder
    )
  }

  init(_ frame: BuildFrame) { self.frame = frame }

  /// Ends the build and returns what it read.
  package func finish() -> Trace {
    let trace = frame.finish()
    return Trace(
      inputs: trace.inputs,
      reads: trace.reads,
      hold: trace.hold,
      fellBack: trace.fellBack
    )
  }

  /// Records that the build read `value`, held under `key`.
  package func recordRead(of key: any DependencyKey.Type, inputs: Set<ObjectIdentifier>) {
    frame.record(key, inputs: inputs)
  }

  /// The key being built.
  package var key: any DependencyKey.Type { frame.keyType }

  /// The context the key is built for.
  package var context: DependencyContext { frame.context }

  /// Whether two records are the same build.
  package static func === (lhs: BuildRecord, rhs: BuildRecord) -> Bool { lhs.frame === rhs.frame }
}

/// Stops with a cycle through async builds: `records`, outermost first, then `key` again.
package func stopWithCycle(_ records: [BuildRecord], reentering key: any DependencyKey.Type)
  -> Never
{
  Diagnostics.stopWithCycle(records.map(\.frame), reentering: [key], recorder: nil)
}

/// Writes `message` to standard error and stops: a programmer error of the lifecycle's.
package func stopWithMessage(_ message: String) -> Never {
  SystemInterface.writeToStandardError(message)
  fatalError(message)
}

extension DependencyKey {
  /// Notes, for the build in progress, that this key's value for `context` is its fallback to
  /// the default one.
  package static func noteFallback(in context: DependencyContext) {
    DependencyValues.current.frame?.noteFallback(of: Self.self, in: context)
  }

  /// The key's short name, for messages.
  package static var keyName: String { debugName }
}

extension DependencyValues {
  // MARK: - Builds

  /// The build this container's reads are recorded in, if any.
  package var buildRecord: BuildRecord? { frame.map(BuildRecord.init) }

  /// This container, recording its reads in `record`.
  package func recording(in record: BuildRecord) -> DependencyValues {
    var copy = self
    copy.frame = record.frame
    return copy
  }

  /// Runs `operation` with this container bound as ``current``, as a builder's task does.
  package func withBound<R>(_ operation: () async throws -> R) async rethrows -> R {
    try await Self.boundLocal.withValue(self, operation: operation)
  }

  /// Runs `operation` with this container bound as ``current`` on `isolation`.
  package func withBound<R>(
    isolation: isolated (any Actor)?,
    _ operation: () async throws -> R
  ) async rethrows -> R {
    try await bind(isolation: isolation, operation)
  }

  /// The builds that read the key whose synchronous read is in progress, up to `record`
  /// (excluded), outermost first.
  package func readers(below record: BuildRecord) -> [BuildRecord] {
    var chain: [BuildRecord] = []
    var frame = self.frame?.parent
    while let nested = frame, nested !== record.frame {
      chain.append(BuildRecord(nested))
      frame = nested.parent
    }
    return chain.reversed()
  }

  /// While a graph is traced, records that `key` was read before it was prepared and parks the
  /// thread, as for a missing input; otherwise returns.
  package func stopIfTracing(unprepared key: any DependencyKey.Type) {
    // The frame is the key's own (failed) synchronous build; what read it is its parent.
    guard let recorder = frame?.recorder ?? storage.recorder else { return }
    PreparedOnlyKeys.insert(ObjectIdentifier(key))
    let reader = frame?.parent
    reader?.record(key, inputs: [])
    reader?.recordUnfinishedChain()
    recorder.stop(missingInput: key)
  }

  // MARK: - Values

  /// The value set on this container for `key`, if any.
  package func overriddenValue(of key: any DependencyKey.Type) -> PreparedValue? {
    let id = ObjectIdentifier(key)
    guard let box = storage.overrides[id] else { return nil }
    return PreparedValue(BuiltValue(box: box, inputs: [], key: KeyType(key), reads: []))
  }

  /// The value of `key` built here or shared from a scope around, without building anything.
  package func existingValue(of key: any DependencyKey.Type) -> PreparedValue? {
    storage.existingBuiltValue(for: ObjectIdentifier(key)).map(PreparedValue.init)
  }

  /// Keeps `value` as this container's built value of its key; false, storing nothing, when
  /// the container already has or builds one.
  package func storePrepared(_ value: PreparedValue) -> Bool {
    storage.storePrepared(value.built.key.id, value.built)
  }

  /// Sets a layer's own marker key on this container without the public setter, so that a
  /// test's scope does not count it as an override the user made.
  package mutating func setInternalMarker<Key: DependencyKey>(_ key: Key.Type, _ value: Key.Value) {
    setOverride(linking: Box(value), for: ObjectIdentifier(key))
  }

  /// The values built or prepared here that the containers this one derives from don't share.
  package var ownBuiltValues: [PreparedValue] { storage.ownBuiltValues.map(PreparedValue.init) }

  /// Marks the values of `keys` as shut down: reads of them stop from now on, here and in every
  /// scope that read them before.
  package func retire(_ keys: Set<ObjectIdentifier>) { storage.retire(keys) }

  /// Stops if `key`'s value was shut down here or in a container this one derives from.
  package func stopIfShutDown<Key: DependencyKey>(_ key: Key.Type) {
    if storage.wasShutDown(ObjectIdentifier(key)) {
      stopReadAfterShutdown(Key.self, context: context)
    }
  }

  // MARK: - The layer's own state

  /// The lifecycle's object for this container, made by `make` on first use; it lives as long
  /// as the container's storage, which every copy and scope without overrides shares.
  package func attachment<T: AnyObject & Sendable>(_ make: () -> T) -> T {
    storage.state.withLock { state in
      let values = state.lifecycleValues()
      if let existing = values.attachment as? T { return existing }
      let made = make()
      values.attachment = made
      return made
    }
  }

  /// The lifecycle's object for this container, if one was made.
  package func existingAttachment<T: AnyObject & Sendable>(as type: T.Type) -> T? {
    storage.state.withLock { $0.lifecycle?.attachment as? T }
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
