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
  fileprivate static func origin() -> (KeyType?, Bool) {
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

/// Whether this thread runs a build now, for an inlined factory call.
@usableFromInline
func factoryCallIsInBuild() -> Bool { BuildFrame.isRunningOnThisThread }

/// The key a cached factory made outside any key's build records its products' reads under.
enum DependencyFactoryProduct<Arguments, Value>: DependencyKey {
  static var defaultValue: Int { 0 }
}

/// A cached factory's products, kept per container beside it (the hook's side table), found
/// by the container's calls and those of the scopes inside it.
@usableFromInline
final class FactoryCache<Arguments: Hashable & Sendable, Value: Sendable>: Sendable {
  let key: any DependencyKey.Type
  let make: @Sendable (Arguments) -> Value
  /// The key whose build made the cache's factory, and whether it is a missing test value's
  /// fallback.
  let origin: (KeyType?, Bool)
  /// The product a root container handed out last: what a repeated call finds with no table.
  @usableFromInline let lastHit = FactoryLastHit()

  @usableFromInline
  init(make: @escaping @Sendable (Arguments) -> Value) {
    let origin = DependencyFactory<Arguments, Value>.origin()
    self.origin = origin
    self.key = origin.0?.type ?? DependencyFactoryProduct<Arguments, Value>.self
    self.make = make
  }

  /// A product for `arguments`, made once per container.
  @inlinable
  func product(for arguments: Arguments) -> Value {
    if let hit = lastHit.hit(in: DependencyValues.current.containerNumber) {
      let hit = unsafeDowncast(hit, to: FactoryHit<Arguments, Value>.self)
      if hit.arguments == arguments { return hit.value }
    }
    return lookUp(arguments)
  }

  /// A product for `arguments` from the tables, made if none is usable; a root container's is
  /// kept as the last hit.
  @usableFromInline
  func lookUp(_ arguments: Arguments) -> Value {
    let values = DependencyValues.current
    // A root's table is the only one its calls ask (nothing above it is reused), and a table
    // never drops a product: what a root's call found there, a later call finds again.
    let remember: (Value) -> Value = { value in
      if values.asksNoSideTableAbove {
        self.lastHit.remember(FactoryHit(arguments, value), in: values.containerNumber)
      }
      return value
    }
    let found = values.firstInSideTables(FactoryTables.self) { tables, changed in
      tables.existing(self)?.usable(arguments, unlessChanged: changed)
    }
    if let found { return remember(found) }
    let table = values.sideTable(FactoryTables.init).table(self)
    while true {
      let frame = BuildFrame.product(of: key, in: values)
      switch table.claim(arguments, for: frame) {
      case .built(let value): return remember(value)
      case .building(let builder):
        builder.stopIfRunningOnThisThread()
        table.wait(for: arguments, builtBy: builder)
      case .claimed:
        let (value, trace) = frame.run(in: values) { make(arguments) }
        table.store(value, inputs: trace.inputs, for: arguments)
        return remember(value)
      }
    }
  }
}

/// A cached factory's product for one argument, as the last hit keeps it.
@usableFromInline
final class FactoryHit<Arguments: Sendable, Value: Sendable>: Sendable {
  @usableFromInline let arguments: Arguments
  @usableFromInline let value: Value

  init(_ arguments: Arguments, _ value: Value) { (self.arguments, self.value) = (arguments, value) }
}

/// The product a cached factory handed out last in a root container, with the container's
/// serial: a call in the same root with an equal argument takes it with one lock and no
/// hashing. It keeps that one product alive until the next root call replaces it, or the
/// factory goes: the root's table keeps it as long anyway, unless the factory outlives its root.
@usableFromInline
final class FactoryLastHit: Sendable {
  private let slot = Locked<(number: UInt64, hit: AnyObject)?>(nil)

  @usableFromInline init() {}

  /// The last hit, if it was made in the container numbered `number`.
  @usableFromInline
  func hit(in number: UInt64) -> AnyObject? {
    slot.withLock { slot in slot.flatMap { $0.number == number ? $0.hit : nil } }
  }

  /// Keeps `hit` as made in the container numbered `number`.
  func remember(_ hit: AnyObject, in number: UInt64) {
    slot.withLock { $0 = (number, hit) }
  }
}

/// The tables of the cached factories called in one container, by factory.
private final class FactoryTables: Sendable {
  private let tables = Locked<[ObjectIdentifier: AnyObject]>([:])

  // The table under a cache's identity is that cache's (`FactoryTable` keeps its cache alive),
  // so its type is known: cast without a check.

  func existing<A, V>(_ cache: FactoryCache<A, V>) -> FactoryTable<A, V>? {
    tables.withLock { $0[ObjectIdentifier(cache)] }.map {
      unsafeDowncast($0, to: FactoryTable<A, V>.self)
    }
  }

  func table<A, V>(_ cache: FactoryCache<A, V>) -> FactoryTable<A, V> {
    tables.withLock { tables in
      if let existing = tables[ObjectIdentifier(cache)] {
        return unsafeDowncast(existing, to: FactoryTable<A, V>.self)
      }
      let made = FactoryTable(cache)
      tables[ObjectIdentifier(cache)] = made
      return made
    }
  }
}

/// One cached factory's products in one container, by argument.
private final class FactoryTable<Arguments: Hashable & Sendable, Value: Sendable>: Sendable {
  enum Slot {
    case building(BuildFrame)
    case built(Value, inputs: Set<ObjectIdentifier>)
  }

  enum Claim {
    case built(Value)
    case building(BuildFrame)
    case claimed
  }

  /// Keeps the cache alive, so that its identity names this table alone.
  private let cache: FactoryCache<Arguments, Value>
  private let slots = Locked<[Arguments: Slot]>([:])

  init(_ cache: FactoryCache<Arguments, Value>) { self.cache = cache }

  /// The product for `arguments`, if one is built here and read no key `changed` reports.
  func usable(
    _ arguments: Arguments,
    unlessChanged changed: (Set<ObjectIdentifier>) -> Bool
  ) -> Value? {
    guard case .built(let value, let inputs)? = slots.withLock({ $0[arguments] }) else {
      return nil
    }
    return changed(inputs) ? nil : value
  }

  /// The product for `arguments`, its build in progress, or a claim to build it by `frame`.
  func claim(_ arguments: Arguments, for frame: BuildFrame) -> Claim {
    slots.withLock { slots in
      switch slots[arguments] {
      case .built(let value, _)?: return .built(value)
      case .building(let builder)?: return .building(builder)
      case nil:
        slots[arguments] = .building(frame)
        return .claimed
      }
    }
  }

  /// Waits until `builder` no longer builds the product for `arguments`.
  func wait(for arguments: Arguments, builtBy builder: BuildFrame) {
    while !slots.wait(
      while: { slots in
        if case .building(let current)? = slots[arguments] { return current === builder }
        return false
      },
      timeout: 0.25
    ) {}
  }

  /// Keeps `value` as the product for `arguments` and wakes the calls that wait for it.
  func store(_ value: Value, inputs: Set<ObjectIdentifier>, for arguments: Arguments) {
    slots.withLock { $0[arguments] = .built(value, inputs: inputs) }
    slots.broadcast()
  }
}
