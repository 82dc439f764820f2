import TinyDependency

/// A dependency that makes values from run-time arguments: a detail model for an id, a client
/// for a tenant.
///
/// Register it as any value, then call it with the arguments:
///
/// ```swift
/// extension DependencyValues {
///   var makeDetailModel: DependencyFactory<Int, DetailModel> {
///     get { self[DetailModelFactoryKey.self] }
///     set { self[DetailModelFactoryKey.self] = newValue }
///   }
/// }
///
/// enum DetailModelFactoryKey: DependencyKey {
///   static var defaultValue: DependencyFactory<Int, DetailModel> {
///     .init { id in DetailModel(id: id) }
///   }
/// }
///
/// @Dependency(\.makeDetailModel) var makeDetailModel
/// let model = makeDetailModel(42)
/// ```
///
/// - A product is made at the call, in the caller's current scope: its own `@Dependency` reads
///   see the overrides around the call, not those around the factory's construction.
/// - ``cached(_:)`` keeps one product per distinct argument per container.
/// - A tuple of up to five elements is passed as separate arguments: `makeRow(1, "a")`.
/// - A factory key without a `testValue` of its own records an issue each time its factory is
///   called in a test (not when it is read), naming the key and the argument.
/// - What a product made inside a build reads, and what a cached product reads, are edges of
///   the factory's key in the graph.
public struct DependencyFactory<Arguments, Value>: Sendable {
  /// Makes a product: the closure given, or the cache in front of it.
  // `@usableFromInline`: a call is inlined into the caller, specialized for its types, and
  // takes the slow path only inside a build or for a missing test value.
  @usableFromInline let body: @Sendable (Arguments) -> Value
  /// The key whose build made this factory, if one did.
  private let key: KeyType?
  /// Set when the factory is its key's default used as the fallback for a missing test value.
  @usableFromInline let untested: Bool
  /// Whether a key's build made this factory: its products made inside builds are recorded.
  @usableFromInline let hasKey: Bool

  /// Creates a factory that makes a product at every call.
  ///
  /// ```swift
  /// static var defaultValue: DependencyFactory<Int, DetailModel> {
  ///   .init { id in DetailModel(id: id) }
  /// }
  /// ```
  ///
  /// - Parameter make: Makes the product for the arguments, in the caller's scope.
  public init(_ make: @escaping @Sendable (Arguments) -> Value) {
    self.body = make
    (self.key, self.untested) = Self.origin()
    self.hasKey = key != nil
  }

  /// Creates a factory that makes a product at every call, and that a graph trace or the
  /// validator calls once with `sample`, so that what its products read is checked before run
  /// time.
  ///
  /// ```swift
  /// static var testValue: DependencyFactory<Int, DetailModel> {
  ///   .init(sample: 1) { id in DetailModel(id: id) }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - sample: An argument to trace the factory with; not used outside traces.
  ///   - make: Makes the product for the arguments, in the caller's scope.
  public init(sample: Arguments, _ make: @escaping @Sendable (Arguments) -> Value) {
    self.init(make)
    Self.trace(make, with: sample, of: key)
  }

  /// While a graph is traced, makes a product with `sample` as a build of the factory's key,
  /// so that the trace records what it reads, stopping at cycles and live fallbacks.
  private static func trace(
    _ make: @Sendable (Arguments) -> Value,
    with sample: Arguments,
    of key: KeyType?
  ) {
    let values = DependencyValues.current
    guard let key, let frame = values.frame, frame.isTraced else { return }
    _ = BuildFrame.product(of: key.type, in: values).run(in: values) { make(sample) }
  }

  private init(body: @escaping @Sendable (Arguments) -> Value, origin: (KeyType?, Bool)) {
    self.body = body
    (self.key, self.untested) = origin
    self.hasKey = key != nil
  }

  /// Makes the product for `arguments`.
  ///
  /// - Parameter arguments: The arguments, a tuple for several.
  /// - Returns: The product, made now in the caller's scope (or, for a cached factory, the one
  ///   this container keeps for `arguments`).
  @inlinable
  public func callAsFunction(_ arguments: Arguments) -> Value {
    guard untested || (hasKey && factoryCallIsInBuild()) else { return body(arguments) }
    return recordedCall(arguments)
  }

  /// A call that reports a missing test value, or that runs inside a build: the product is
  /// then made as a build of the factory's key, so its reads are the key's edges, and the
  /// caller's inputs.
  @usableFromInline
  func recordedCall(_ arguments: Arguments) -> Value {
    if untested { reportUntestedCall(arguments) }
    guard let key, BuildFrame.isRunningOnThisThread else { return body(arguments) }
    let values = DependencyValues.current
    return BuildFrame.product(of: key.type, in: values).run(in: values) { body(arguments) }.0
  }

  /// The key whose build is making this factory, and whether this is its live default made as
  /// the fallback for a missing test value.
  static func origin() -> (KeyType?, Bool) {
    guard let frame = BuildFrame.running else { return (nil, false) }
    func valueType<Key: DependencyKey>(_ key: Key.Type) -> Any.Type { Key.Value.self }
    guard valueType(frame.keyType) == Self.self else { return (nil, false) }
    return (KeyType(frame.keyType), frame.context == .test && frame.fellBackToDefault)
  }

  private func reportUntestedCall(_ arguments: Arguments) {
    let name = key.map { _typeName($0.type, qualified: false) } ?? "A factory key"
    IssueReporter.report(
      """
      \(name) has no test value: its live factory was called in a test with \(arguments). \
      Fix: override it in the test (`$0[\(name).self] = .init { … }`, or the key path's \
      setter), or declare `static var testValue` on \(name).
      """
    )
  }
}

extension DependencyFactory where Arguments: Hashable & Sendable, Value: Sendable {
  // `cached(_:)` is `@inlinable`: the cache's hit path is specialized for the key's types where the key is
  // declared, with no generic metadata to look up at each call.

  /// Creates a factory that makes one product per distinct argument per container, and hands
  /// it out again at later calls with an equal argument.
  ///
  /// ```swift
  /// static var defaultValue: DependencyFactory<String, TenantClient> {
  ///   .cached { tenant in TenantClient(tenant: tenant) }
  /// }
  /// ```
  ///
  /// A product is made once even when several threads call with the same argument at once:
  /// one makes it, with no lock held, and the others wait for it, blocking their threads (a
  /// synchronous call can only wait synchronously). A scope inside the container reuses its
  /// products unless it overrides a key a product read, as for shared values; a product made in
  /// a scope stays there and is released with it, so a scope per request keeps no argument of
  /// its own beyond the request. A product is made as a shared value is built: a `@Dependency`
  /// it keeps reads through the scope it was made in while that scope lives. Calling the factory
  /// with an argument while making that same argument's product on the same thread stops with
  /// the cycle.
  ///
  /// - Parameter make: Makes the product for an argument, in the scope of the first call.
  /// - Returns: The factory.
  @inlinable
  public static func cached(_ make: @escaping @Sendable (Arguments) -> Value) -> Self {
    let cache = FactoryCache<Arguments, Value>(make: make)
    return Self(body: { cache.product(for: $0) }, cache: cache)
  }

  /// A factory whose calls go to `cache`, made by its key's build if one runs.
  @usableFromInline
  init(body: @escaping @Sendable (Arguments) -> Value, cache: FactoryCache<Arguments, Value>) {
    self.init(body: body, origin: cache.origin)
  }
}

extension DependencyFactory {
  /// Makes the product of a factory without arguments.
  ///
  /// - Returns: The product.
  @inlinable
  public func callAsFunction() -> Value where Arguments == Void {
    self(())
  }

  /// Makes the product for two arguments.
  ///
  /// - Returns: The product.
  @inlinable
  public func callAsFunction<A, B>(_ a: A, _ b: B) -> Value where Arguments == (A, B) {
    self((a, b))
  }

  /// Makes the product for three arguments.
  ///
  /// - Returns: The product.
  @inlinable
  public func callAsFunction<A, B, C>(_ a: A, _ b: B, _ c: C) -> Value
  where Arguments == (A, B, C) {
    self((a, b, c))
  }

  /// Makes the product for four arguments.
  ///
  /// - Returns: The product.
  @inlinable
  public func callAsFunction<A, B, C, D>(_ a: A, _ b: B, _ c: C, _ d: D) -> Value
  where Arguments == (A, B, C, D) {
    self((a, b, c, d))
  }

  /// Makes the product for five arguments.
  ///
  /// - Returns: The product.
  @inlinable
  public func callAsFunction<A, B, C, D, E>(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) -> Value
  where Arguments == (A, B, C, D, E) {
    self((a, b, c, d, e))
  }
}
