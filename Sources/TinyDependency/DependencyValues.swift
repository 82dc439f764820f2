/// A container of dependency values: overrides set on it, and the values it builds from keys.
///
/// Register each dependency as a computed property:
///
/// ```swift
/// extension DependencyValues {
///   var logger: any Logger {
///     get { self[LoggerKey.self] }
///     set { self[LoggerKey.self] = newValue }
///   }
/// }
/// ```
///
/// The container that code sees is ``current``: a task-local binding that
/// ``withDependencies(_:operation:)-((DependencyValues)->Void,_)`` overrides for one operation. A
/// container also works on its own, with no task-local involved, which suits a server that builds
/// one per request:
///
/// ```swift
/// var request = DependencyValues(context: .default)
/// request.requestID = RequestID("r-42")
/// let handler = request.requestHandler        // built from this container's values
/// withDependencies(request) { handler.run() } // or bind it for an operation
/// ```
///
/// `DependencyValues` has value semantics: setting a key on a copy never changes the original
/// or the scope it came from. A key's value is built on first read and reused by later reads of
/// the same container (see ``DependencyLifetime``). A nested scope reuses a value built by the
/// scope around it unless it overrides a key that value read while it was built.
public struct DependencyValues: Sendable {
  /// The overrides, cache, context and scope identity: one reference, so copying a container
  /// (which every read of ``current`` does) costs one retain.
  @usableFromInline
  var storage: DependencyStorage
  /// The build this container was bound for, while a key's value is being built.
  @usableFromInline
  var binding: BuildBinding?

  /// Creates an empty container whose values are built for `context`.
  ///
  /// - Parameter context: The context to build values for; nil detects it as described in
  ///   ``DependencyContext``.
  public init(context: DependencyContext? = nil) {
    self.storage = DependencyStorage(context: context)
    self.binding = nil
  }

  init(storage: DependencyStorage) {
    self.storage = storage
    self.binding = nil
  }

  /// Reads or overrides the value of a key.
  ///
  /// Reading returns the value set on this container or a scope around it, or else the key's
  /// value for ``context``, built on first read. Setting overrides the key for this container
  /// only: copies made before are unaffected.
  ///
  /// - Parameter key: The key type.
  @inlinable
  public subscript<Key: DependencyKey>(key: Key.Type) -> Key.Value {
    get {
      // The fast path: an override, or a value already built here, with no build to record.
      let id = ObjectIdentifier(key)
      if binding == nil, let box = storage.lookup(id) {
        return box._withUnsafeGuaranteedRef { $0.unbox(as: Key.Value.self) }
      }
      return resolve(key, id: id)
    }
    set {
      let box = Box(newValue)
      noteOverride(key, box: box)
      setOverride(linking: box, for: ObjectIdentifier(key))
    }
  }

  /// Reads a key the slow way: recording the read for a build in progress, or building.
  @usableFromInline
  func resolve<Key: DependencyKey>(_ key: Key.Type, id: ObjectIdentifier) -> Key.Value {
    // Only an observer that asked to hear reads is told: the others (a trace, strict mode
    // alone) cost a stored flag here, not a call.
    let observes = storage.observesReads
    if let box = storage.overrides[id] {
      if observes { storage.observer?.didRead(key, override: box) }
      frame?.record(Key.self, inputs: [])
      return box.unbox(as: Key.Value.self)
    }
    if observes { storage.observer?.didRead(key, override: nil) }
    return storage.value(for: key, id: id, in: self)
  }

  /// Tells the test this container belongs to that `Key` is about to be overridden with
  /// `box`, over the override the container sees now, if any.
  @usableFromInline
  func noteOverride<Key: DependencyKey>(_ key: Key.Type, box: AnyBox) {
    guard let observer = storage.observer else { return }
    observer.didSetOverride(of: key, box: box, replacing: storage.overrides[ObjectIdentifier(key)])
  }

  /// Overrides `id` with a copy of `box`, which may be shared.
  mutating func setOverride(_ box: AnyBox, for id: ObjectIdentifier) {
    prepareToMutate()
    storage.setOverride(box, for: id)
  }

  /// Overrides `id` with `box`, made by the caller for this call alone: the box becomes a layer
  /// of the overrides (see ``PersistentMap/set(_:linking:)``).
  @usableFromInline
  mutating func setOverride(linking box: AnyBox, for id: ObjectIdentifier) {
    prepareToMutate()
    storage.setOverride(linking: box, for: id)
  }

  /// The context this container builds values for.
  ///
  /// Setting it (in a container or inside
  /// ``withDependencies(_:operation:)-((DependencyValues)->Void,_)``) takes precedence over
  /// `TINY_DEPENDENCY_CONTEXT` and detection; values built before are not reused.
  public var context: DependencyContext {
    get { storage.context }
    set {
      guard newValue != storage.context else { return }
      prepareToMutate()
      storage.choose(newValue)
    }
  }

  /// Gives this container a storage of its own before it changes, unless it already has one
  /// that nothing else references or has read from.
  mutating func prepareToMutate() {
    if !isKnownUniquelyReferenced(&storage) || !storage.isMutable {
      storage = DependencyStorage(deriving: storage)
    }
  }

  /// The values set on this container and on the scopes it derives from.
  var overrides: PersistentMap { storage.overrides }
}

// MARK: - The current container

extension DependencyValues {
  /// What a read needs of the process, in one constant, so that it checks one lazily made
  /// global where three (each a `swift_once` call) cost a read of an object made outside any
  /// scope a sixth of its instructions:
  /// - `bound`, the task-local behind ``bound``, spelled out rather than `@TaskLocal`, which is a
  ///   macro: expanding it loads the macro plugin in every compile of this module;
  /// - `routesUnboundReads`: whether a read with nothing bound asks TinyDependencyTesting for the
  ///   running test's root, true when that product is linked (see `UnboundRoots`);
  /// - `root`: the container that is current when nothing is bound, built for the detected
  ///   context. Unbound reads borrow it from this constant, with no retain of a shared object,
  ///   so reads outside any scope scale across threads.
  @usableFromInline
  static let process = (
    bound: TaskLocal<DependencyValues?>(wrappedValue: nil),
    routesUnboundReads: UnboundRoots.provider != nil,
    root: DependencyValues(storage: DependencyStorage(context: nil, isProcessRoot: true))
  )

  /// The container that is current when nothing is bound: built for the detected context.
  static var processRoot: DependencyValues { process.root }

  /// The container bound to the current task, or nil for the process root; read through
  /// ``current``.
  @inlinable
  static var bound: DependencyValues? { process.bound.get() }

  /// The container that dependencies are read from in the current task.
  ///
  /// It is the container bound by the innermost
  /// ``withDependencies(_:operation:)-((DependencyValues)->Void,_)`` (or its variants),
  /// inherited by child tasks (`Task {}`, task groups, `async let`); outside any scope it is a
  /// process-wide root container built for ``DependencyContext/detected``.
  /// Task-local values are **not** inherited by `Task.detached` or by Dispatch and other
  /// callbacks: use ``withEscapedDependencies(_:)`` for those.
  @inlinable
  public static var current: DependencyValues {
    if let bound { return bound }
    if process.routesUnboundReads { return UnboundRoots.unboundValues() }
    return process.root
  }

  /// Runs `operation` with `values` bound as ``current``.
  func bind<R>(_ operation: () throws -> R) rethrows -> R {
    storage.freeze()
    return try Self.process.bound.withValue(self, operation: operation)
  }

  /// Runs `operation` with `values` bound as ``current``.
  func bind<R>(
    isolation: isolated (any Actor)?,
    _ operation: () async throws -> R
  ) async rethrows -> R {
    storage.freeze()
    return try await Self.process.bound.withValue(self, operation: operation, isolation: isolation)
  }
}
