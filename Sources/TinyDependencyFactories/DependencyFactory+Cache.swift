public import TinyDependency

// A cached factory's products per container, and the last hit a root container's repeated
// call takes without a table (DependencyFactory.swift holds the public API).

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
  @usableFromInline let lastHit = LastHitMemo()

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
    if let hit = lastHit.hitInCurrentContainer() {
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
    // The hit is the root's own table's, which keeps it as long as the root lives.
    let remember: (FactoryHit<Arguments, Value>) -> Value = { hit in
      if values.asksNoAttachmentAbove { self.lastHit.remember(hit, in: values.containerNumber) }
      return hit.value
    }
    let found = values.firstInAttachments(FactoryTables.self) { tables, changed in
      tables.existing(self)?.usable(arguments, unlessChanged: changed)
    }
    if let found { return remember(found) }
    let table = values.attachment(FactoryTables.init).table(self)
    while true {
      let frame = BuildFrame.product(of: key, in: values)
      switch table.claim(arguments, for: frame) {
      case .built(let value): return remember(value)
      case .building(let builder):
        // The core's wait: a cycle stops with its path, a long hand-off warns.
        builder.waitForProduct(of: key, in: values) { timeout in
          table.wait(for: arguments, builtBy: builder, timeout: timeout)
        }
      case .claimed:
        let (value, trace) = frame.run(in: values) { make(arguments) }
        return remember(table.store(value, inputs: trace.inputs, for: arguments))
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
    /// The product, kept as the hit a cache's last-hit memo may refer to.
    case built(FactoryHit<Arguments, Value>, inputs: Set<ObjectIdentifier>)
  }

  enum Claim {
    case built(FactoryHit<Arguments, Value>)
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
  ) -> FactoryHit<Arguments, Value>? {
    guard case .built(let hit, let inputs)? = slots.withLock({ $0[arguments] }) else {
      return nil
    }
    return changed(inputs) ? nil : hit
  }

  /// The product for `arguments`, its build in progress, or a claim to build it by `frame`.
  func claim(_ arguments: Arguments, for frame: BuildFrame) -> Claim {
    slots.withLock { slots in
      switch slots[arguments] {
      case .built(let hit, _)?: return .built(hit)
      case .building(let builder)?: return .building(builder)
      case nil:
        slots[arguments] = .building(frame)
        return .claimed
      }
    }
  }

  /// Waits at most `timeout` seconds until `builder` no longer builds the product for
  /// `arguments`; returns whether it finished.
  func wait(for arguments: Arguments, builtBy builder: BuildFrame, timeout: Double) -> Bool {
    slots.wait(
      while: { slots in
        if case .building(let current)? = slots[arguments] { return current === builder }
        return false
      },
      timeout: timeout
    )
  }

  /// Keeps `value` as the product for `arguments`, wakes the calls that wait for it, and
  /// returns it as kept.
  func store(
    _ value: Value,
    inputs: Set<ObjectIdentifier>,
    for arguments: Arguments
  ) -> FactoryHit<Arguments, Value> {
    let hit = FactoryHit(arguments, value)
    slots.withLock { $0[arguments] = .built(hit, inputs: inputs) }
    slots.broadcast()
    return hit
  }
}
