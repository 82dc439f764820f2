/// A property wrapper that reads a dependency from the current scope.
///
/// ```swift
/// final class TodoStore {
///   @Dependency(\.clock) var clock
///   @Dependency(\.logger) var logger
///
///   func add(_ title: String) {
///     logger.log("added \(title) at \(clock.now())")
///   }
/// }
/// ```
///
/// The wrapper captures the scope it was created in: an object made inside
/// ``withDependencies(_:operation:)-((DependencyValues)->Void,_)`` keeps those overrides after the
/// scope ends. On each read, a value overridden in the current scope (since the scope the object
/// was made in) wins; then the overrides of the captured scope apply; then the key's value for
/// the context, built once.
/// No dictionaries are merged on a read.
@propertyWrapper
public struct Dependency<Value: Sendable>: Sendable {
  /// The key path of the registered property, when created from one.
  ///
  /// `nonisolated(unsafe)`: the key paths this wrapper is given name computed properties of
  /// ``DependencyValues``; a key path is immutable once formed and is only applied here.
  @usableFromInline
  nonisolated(unsafe) let keyPath: KeyPath<DependencyValues, Value>?
  @usableFromInline
  let getter: (@Sendable (DependencyValues) -> Value)?
  @usableFromInline
  let keyReader: KeyReader<Value>?
  @usableFromInline
  let capture: CapturedScope?

  /// Creates a dependency read through a key path value of ``DependencyValues``.
  ///
  /// `@Dependency(\.logger)` with a literal picks the faster function form instead; this
  /// initializer serves key paths held in variables.
  ///
  /// - Parameter keyPath: The registered property, such as `\.logger`.
  @_disfavoredOverload
  public init(_ keyPath: KeyPath<DependencyValues, Value>) {
    self.keyPath = keyPath
    self.getter = nil
    self.keyReader = nil
    self.capture = CapturedScope(DependencyValues.current)
  }

  /// Creates a dependency read through a function of the container.
  ///
  /// A key path literal such as `\.logger` converts to this form (SE-0249), which the compiler
  /// turns into a direct call of the property's getter: several times cheaper per read than
  /// applying a `KeyPath` value, which the key path initializer still
  /// accepts.
  ///
  /// - Parameter getter: Reads the dependency from a container, such as `{ $0.logger }`.
  public init(_ getter: @escaping @Sendable (DependencyValues) -> Value) {
    self.keyPath = nil
    self.getter = getter
    self.keyReader = nil
    self.capture = CapturedScope(DependencyValues.current)
  }

  /// Creates a dependency read directly by its key type.
  ///
  /// ```swift
  /// @Dependency(LoggerKey.self) var logger
  /// ```
  ///
  /// - Parameter key: The key type.
  public init<Key: DependencyKey>(_ key: Key.Type) where Key.Value == Value {
    self.keyPath = nil
    self.getter = nil
    self.keyReader = TypedKeyReader<Key>()
    self.capture = CapturedScope(DependencyValues.current)
  }

  /// The dependency's value in the current scope.
  @inlinable
  public var wrappedValue: Value {
    guard let current = DependencyValues.bound else {
      if DependencyValues.processRoot.storage.routesUnboundReads {
        return read(in: TestRoots.unboundValues())
      }
      // Outside any scope: read the process root straight from its constant, so threads don't
      // contend on its reference count.
      guard let capture else { return read(DependencyValues.processRoot) }
      return read(capture.effectiveValues(current: DependencyValues.processRoot))
    }
    return read(in: current)
  }

  /// Reads the value in `current`, combined with the captured scope.
  @inlinable @inline(__always)
  func read(in current: DependencyValues) -> Value {
    guard let capture, capture.serial != current.storage.serial else {
      return read(current)
    }
    return read(capture.effectiveValues(current: current))
  }

  @inlinable @inline(__always)
  func read(_ values: DependencyValues) -> Value {
    if let getter { return getter(values) }
    if let keyPath { return values[keyPath: keyPath] }
    return keyReader!.read(values)
  }
}

/// Reads one key's value from a container; the key type is a generic parameter, not a capture.
///
/// `@unchecked Sendable`: it has no state.
@usableFromInline
class KeyReader<Value: Sendable>: @unchecked Sendable {
  @usableFromInline
  func read(_ values: DependencyValues) -> Value {
    fatalError("KeyReader.read is abstract")
  }
}

final class TypedKeyReader<Key: DependencyKey>: KeyReader<Key.Value>, @unchecked Sendable {
  override func read(_ values: DependencyValues) -> Key.Value {
    values[Key.self]
  }
}

/// The scope a ``Dependency`` was created in, and how it combines with the scopes it is read in.
///
/// A wrapper made while a key's value is being built is usually part of that value, which the
/// container caches: such a capture holds the container's storage weakly, or the two would keep
/// each other alive, and keeps its overrides and context strongly. If the storage goes away
/// while the value lives on, the capture rebuilds an equivalent container from those, with an
/// empty cache.
///
/// `@unchecked Sendable`: `decisions` and `replacement` are guarded by `lock`; the other stored
/// properties are immutable after `init` (`weakStorage` is a weak reference, which the runtime
/// makes safe to load from any thread).
@usableFromInline
final class CapturedScope: @unchecked Sendable {
  private enum Decision {
    /// The current scope already contains everything the captured one overrides.
    case current
    /// The current scope adds nothing since the captured one: read from it.
    case captured
    /// Both added overrides: the captured scope with the current one's newer overrides on top.
    case merged(DependencyStorage)
    /// As `merged`, for a weak capture: the storage is kept by the current scope instead.
    case mergedInCurrentScope
  }

  private struct CachedDecision {
    /// The ``DependencyStorage/serial`` of the scope read in: unique, and holds nothing alive.
    let serial: UInt64
    let decision: Decision
  }

  /// The ``DependencyStorage/serial`` of the captured scope, compared on every read.
  @usableFromInline
  let serial: UInt64
  private let strongStorage: DependencyStorage?
  private weak var weakStorage: DependencyStorage?
  /// The build this wrapper was made in, if any. A read on a thread that build handed work to
  /// joins its chain, so a cycle through that hand-off is reported rather than waited on.
  private weak var buildFrame: BuildFrame?
  private let overrides: PersistentMap
  private let context: DependencyContext

  private let lock = Lock()
  /// Guarded by `lock`; behind a pointer so that reads skip dynamic exclusivity checks.
  private let decisions: UnsafeMutablePointer<[CachedDecision]> = {
    let pointer = UnsafeMutablePointer<[CachedDecision]>.allocate(capacity: 1)
    pointer.initialize(to: [])
    return pointer
  }()
  /// Guarded by `lock`: the container rebuilt for a weak capture whose storage is gone.
  private var replacement: DependencyStorage?
  private static let maximumCachedDecisions = 8

  /// Captures `current`, or returns nil when it is the process root, which adds nothing.
  @usableFromInline
  init?(_ current: DependencyValues) {
    guard !current.storage.isProcessRoot else { return nil }
    current.storage.freeze()
    serial = current.storage.serial
    overrides = current.storage.overrides
    context = current.storage.context
    if current.frame != nil {
      strongStorage = nil
      weakStorage = current.storage
      buildFrame = current.frame
      current.frame?.noteCapture()
    } else {
      strongStorage = current.storage
    }
  }

  deinit {
    decisions.deinitialize(count: 1)
    decisions.deallocate()
  }

  /// The captured storage, or, for a weak capture whose storage is gone, an equivalent one.
  private var capturedStorage: DependencyStorage {
    if let storage = strongStorage ?? weakStorage { return storage }
    return lock.withLock {
      if let replacement { return replacement }
      let storage = DependencyStorage(context: context)
      storage.setOverrides(overrides)
      storage.freeze()
      replacement = storage
      return storage
    }
  }

  /// The values to read from in `current`.
  @usableFromInline
  func effectiveValues(current: DependencyValues) -> DependencyValues {
    let serial = current.storage.serial
    var decision = lock.withLock {
      decisions.pointee.first { $0.serial == serial }?.decision
    }
    if decision == nil {
      var evicted: CachedDecision?
      let decided = decide(current: current)
      decision = lock.withLock {
        // Another thread may have decided first: use one decision, so a value is built once.
        if let earlier = decisions.pointee.first(where: { $0.serial == serial }) {
          return earlier.decision
        }
        if decisions.pointee.count >= Self.maximumCachedDecisions {
          evicted = decisions.pointee.removeFirst()
        }
        decisions.pointee.append(CachedDecision(serial: serial, decision: decided))
        return decided
      }
      // Released here, outside the lock: it may hold values whose deinit reads dependencies.
      withExtendedLifetime(evicted) {}
    }
    let storage: DependencyStorage
    switch decision! {
    case .current:
      return current
    case .captured:
      storage = capturedStorage
    case .merged(let merged):
      storage = merged
    case .mergedInCurrentScope:
      storage = current.storage.mergedScope(for: self.serial) {
        Self.merge(capturedStorage, with: current)
      }
    }
    var result = DependencyValues(storage: storage)
    result.frame = current.frame
    if result.frame == nil, strongStorage == nil, let frame = buildFrame, frame.isActive {
      result.frame = frame
    }
    return result
  }

  private func decide(current: DependencyValues) -> Decision {
    let captured = capturedStorage
    current.storage.freeze()
    if current.storage.isProcessRoot { return .captured }

    // The nearest scope both derive from, if any.
    var left: DependencyStorage? = captured
    var right: DependencyStorage? = current.storage
    while let l = left, let r = right, l !== r {
      if l.depth >= r.depth { left = l.parent }
      if r.depth >= l.depth { right = r.parent }
    }
    let common = left === right ? left : nil
    if common === captured { return .current }
    if common === current.storage { return .captured }
    // A merged storage holds the captured one: a weak capture must not keep it.
    if strongStorage == nil { return .mergedInCurrentScope }
    return .merged(Self.merge(captured, with: current))
  }

  /// The captured storage with what the current scope changed since their common ancestor on
  /// top: those overrides, and its context if it chose one.
  private static func merge(
    _ captured: DependencyStorage,
    with current: DependencyValues
  ) -> DependencyStorage {
    var ancestors: Set<ObjectIdentifier> = []
    var node: DependencyStorage? = captured
    while let scope = node {
      ancestors.insert(ObjectIdentifier(scope))
      node = scope.parent
    }
    var changed: Set<ObjectIdentifier> = []
    var choseContext = false
    node = current.storage
    while let scope = node, !ancestors.contains(ObjectIdentifier(scope)) {
      changed.formUnion(scope.changedKeys)
      choseContext = choseContext || scope.choosesContext
      node = scope.parent
    }
    let storage = DependencyStorage(deriving: captured)
    for key in changed {
      if let box = current.overrides[key] { storage.setOverride(box, for: key) }
    }
    if choseContext && current.context != captured.context {
      storage.choose(current.context)
    }
    storage.freeze()
    return storage
  }
}
