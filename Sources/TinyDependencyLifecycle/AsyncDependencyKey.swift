public import TinyDependency

/// A key whose value is made by asynchronous code: prepared before it is read, never on a read.
///
/// A database pool that connects, a configuration file that is read, a token that is fetched:
/// declare the work in ``makeDefault()`` (and, if tests or previews need another value,
/// ``makeTest()`` and ``makePreview()``), register the key like any other, and prepare it at
/// start-up. Reads stay synchronous and cost what a read of a synchronous key costs.
///
/// ```swift
/// enum PoolKey: AsyncDependencyKey {
///   static func makeDefault() async throws -> ConnectionPool {
///     try await ConnectionPool.connect(size: 4)
///   }
/// }
///
/// enum UserServiceKey: AsyncDependencyKey {
///   static func makeDefault() async throws -> UserService {
///     // Awaits the pool's shared build: the pool is prepared first, once.
///     UserService(pool: try await DependencyValues.current.prepared(PoolKey.self))
///   }
/// }
///
/// try await DependencyValues.current.prepare([PoolKey.self, UserServiceKey.self])
/// let service = DependencyValues.current[UserServiceKey.self]  // synchronous from here on
/// ```
///
/// ``TinyDependency/DependencyValues/prepare(_:timeout:)`` builds the listed keys and the async keys they
/// await, each once per container, in dependency order with independent branches concurrently.
/// Reading an async key that was not prepared stops with its name and how to prepare it, as
/// reading an unset input does; ``TinyDependency/DependencyValues/unpreparedKeys(among:)`` lists such keys
/// without building anything.
///
/// ``makeTest()`` and ``makePreview()`` fall back to ``makeDefault()``, and the fallback is
/// noted as it is for synchronous keys (the strict mode of TinyDependencyTesting reports it).
public protocol AsyncDependencyKey: DependencyKey {
  /// The type of the dependency's value, inferred from ``makeDefault()``.
  associatedtype Value

  /// Makes the value used in the default (live) context: the real implementation.
  static func makeDefault() async throws -> Value

  /// Makes the value used in the test context; falls back to ``makeDefault()``.
  static func makeTest() async throws -> Value

  /// Makes the value used in the preview context; falls back to ``makeDefault()``.
  static func makePreview() async throws -> Value
}

extension AsyncDependencyKey {
  /// Falls back to ``makeDefault()``, and notes that it did for the build in progress.
  public static func makeTest() async throws -> Value {
    noteFallback(in: .test)
    return try await makeDefault()
  }

  /// Falls back to ``makeDefault()``, and notes that it did for the build in progress.
  public static func makePreview() async throws -> Value {
    noteFallback(in: .preview)
    return try await makeDefault()
  }

  /// Stops with the key's name and how to prepare it: an async key's value is never made on
  /// a synchronous read.
  public static var defaultValue: Value { stopUnprepared(Self.self) }

  /// Stops with the key's name and how to prepare it, like ``defaultValue``.
  public static var testValue: Value { stopUnprepared(Self.self) }

  /// Stops with the key's name and how to prepare it, like ``defaultValue``.
  public static var previewValue: Value { stopUnprepared(Self.self) }

  /// Makes the value that `context` selects.
  static func make(for context: DependencyContext) async throws -> Value {
    switch context {
    case .default: try await makeDefault()
    case .test: try await makeTest()
    case .preview: try await makePreview()
    }
  }
}

/// Stops because `key` is an async key read before it was prepared; while tracing, records it
/// as a missing input instead.
func stopUnprepared<Key: AsyncDependencyKey>(_ key: Key.Type) -> Never {
  stopUnlessShared(key)
  let values = DependencyValues.current
  values.stopIfTracing(unprepared: key)
  values.stopIfShutDown(Key.self)
  let id = ObjectIdentifier(key)
  let inFlight = Lifecycle.existing(values)?.inFlightBuild(for: id)
  // An async build that is still waiting, through the builds it awaits, for the one that read
  // this key: a cycle.
  if let inFlight, let current = PendingBuild.current,
    let loop = AwaitingBuilds.chain(to: current, from: inFlight)
  {
    stopWithCycle(loop.map(\.record) + values.readers(below: current.record), reentering: key)
  }
  let name = Key.keyName
  let state =
    inFlight == nil
    ? "was not prepared in the \(values.context) context, so it has no value to read"
    : "is still being prepared in the \(values.context) context, and was read before its "
      + "build finished"
  stopWithMessage(
    """
    TinyDependency: \(name) is an async key that \(state).
    Prepare it before it is read: `try await values.prepare([\(name).self])` on the container \
    (at start-up, `try await DependencyValues.current.prepare([\(name).self])`); in the build \
    of another async key, `try await DependencyValues.current.prepared(\(name).self)`. A scope \
    that overrides a key it read needs a prepare of its own. \
    `DependencyValues.unpreparedKeys(among:)` lists the async keys a container still lacks.
    """
  )
}

/// Stops when `key` declares a lifetime other than shared: an async key's value is made once per
/// container, by `prepare`, and read from there.
func stopUnlessShared(_ key: any DependencyKey.Type) {
  let lifetime = key.lifetime
  guard lifetime != .shared else { return }
  let name = _typeName(key, qualified: false)
  stopWithMessage(
    """
    TinyDependency: \(name) is an async key declared \(lifetime): an async key's value is made \
    once per container, by `prepare`, and read from there, so it can be neither built on every \
    read nor given to the container as an input. Fix: remove its `lifetime` (async keys are \
    shared), or make \(name) a synchronous `DependencyKey` if it must be \(lifetime).
    """
  )
}
