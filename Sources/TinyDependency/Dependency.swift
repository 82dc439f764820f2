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
  /// Reads the value from a container: the registered property's getter, or a key path or key
  /// applied to the container. One function for every form, so a read follows no enum.
  @usableFromInline
  let reader: @Sendable (DependencyValues) -> Value
  /// The scope the wrapper was made in; nil for the process root, which adds nothing. In a
  /// SwiftUI view, the nearest `.dependencies` modifier's, set before each body
  /// (Adapters/ViewScope.swift).
  @usableFromInline
  var scope: WrapperScope?
  /// The container of the nearest `.dependencies` modifier (TinyDependencySwiftUI), which
  /// SwiftUI installs when the wrapper is stored in a view; empty where SwiftUI does not exist
  /// (Platform/ViewEnvironment.swift), and read only in `update()`.
  @usableFromInline
  var viewEnvironment = ViewEnvironment.dependencies()

  /// Creates a dependency read through a key path value of ``DependencyValues``.
  ///
  /// `@Dependency(\.logger)` with a literal picks the faster function form instead; this
  /// initializer serves key paths held in variables. It allocates once, when the wrapper is
  /// made, for the function that applies the key path.
  ///
  /// - Parameter keyPath: The registered property, such as `\.logger`.
  @_disfavoredOverload
  public init(_ keyPath: KeyPath<DependencyValues, Value>) {
    // `nonisolated(unsafe)`: a key path is immutable once formed, and this one names a computed
    // property of `DependencyValues`, which is `Sendable`; `KeyPath` is not marked `Sendable`.
    nonisolated(unsafe) let keyPath = keyPath
    self.init(reader: { $0[keyPath: keyPath] })
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
    self.init(reader: getter)
  }

  /// Creates a dependency read directly by its key type.
  ///
  /// ```swift
  /// @Dependency(LoggerKey.self) var logger
  /// ```
  ///
  /// - Parameter key: The key type.
  public init<Key: DependencyKey>(_ key: Key.Type) where Key.Value == Value {
    self.init(reader: { $0[Key.self] })
  }

  init(reader: @escaping @Sendable (DependencyValues) -> Value) {
    self.reader = reader
    self.scope = WrapperScope.current()
  }

  /// The dependency's value in the current scope.
  @inlinable
  public var wrappedValue: Value {
    guard let current = DependencyValues.bound else {
      if DependencyValues.process.routesUnboundReads {
        return read(in: UnboundRoots.unboundValues())
      }
      // Outside any scope: read the process root straight from its constant, so threads don't
      // contend on its reference count.
      return read(in: DependencyValues.process.root)
    }
    return read(in: current)
  }

  /// Reads the value in `current`, combined with the scope the wrapper was made in.
  @inlinable @inline(__always)
  func read(in current: DependencyValues) -> Value {
    // Optional chaining borrows `scope` where a binding would copy (retain) it.
    if scope?.isScope(of: current) ?? true { return reader(current) }
    return reader(scope.unsafelyUnwrapped.values(readIn: current))
  }
}
