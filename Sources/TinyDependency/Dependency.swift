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
  @usableFromInline
  let reader: DependencyReader<Value>
  /// The scope the wrapper was made in; nil for the process root, which adds nothing.
  @usableFromInline
  let capture: CapturedScope?
  /// `capture`, unretained, for reads: `capture` keeps it alive as long as the wrapper exists,
  /// and a read through this field retains nothing (retaining a capture is slow: its storage's
  /// weak reference to it gives it a side table).
  @usableFromInline
  let unretainedCapture: Unmanaged<CapturedScope>?

  /// Creates a dependency read through a key path value of ``DependencyValues``.
  ///
  /// `@Dependency(\.logger)` with a literal picks the faster function form instead; this
  /// initializer serves key paths held in variables.
  ///
  /// - Parameter keyPath: The registered property, such as `\.logger`.
  @_disfavoredOverload
  public init(_ keyPath: KeyPath<DependencyValues, Value>) {
    self.init(reader: .keyPath(keyPath))
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
    self.init(reader: .function(getter))
  }

  /// Creates a dependency read directly by its key type.
  ///
  /// ```swift
  /// @Dependency(LoggerKey.self) var logger
  /// ```
  ///
  /// - Parameter key: The key type.
  public init<Key: DependencyKey>(_ key: Key.Type) where Key.Value == Value {
    self.init(reader: .key(TypedKeyReader<Key>()))
  }

  init(reader: DependencyReader<Value>) {
    self.reader = reader
    let capture = DependencyValues.current.captureForWrapper()
    self.capture = capture
    self.unretainedCapture = capture.map { Unmanaged.passUnretained($0) }
  }

  /// The dependency's value in the current scope.
  @inlinable
  public var wrappedValue: Value {
    guard let current = DependencyValues.bound else {
      if DependencyValues.routesUnboundReads {
        return read(in: TestRoots.unboundValues())
      }
      // Outside any scope: read the process root straight from its constant, so threads don't
      // contend on its reference count.
      guard let capture = unretainedCapture else {
        return reader.read(DependencyValues.processRoot)
      }
      return reader.read(
        capture._withUnsafeGuaranteedRef {
          $0.effectiveValues(current: DependencyValues.processRoot)
        }
      )
    }
    return read(in: current)
  }

  /// Reads the value in `current`, combined with the captured scope.
  @inlinable @inline(__always)
  func read(in current: DependencyValues) -> Value {
    guard let capture = unretainedCapture,
      capture._withUnsafeGuaranteedRef({ $0.serial }) != current.storage.serial
    else {
      return reader.read(current)
    }
    return reader.read(capture._withUnsafeGuaranteedRef { $0.effectiveValues(current: current) })
  }
}

/// How a ``Dependency`` reads its value from a container.
///
/// `@unchecked Sendable`: the key paths it holds name computed properties of
/// ``DependencyValues``; a key path is immutable once formed and is only applied here.
@usableFromInline
enum DependencyReader<Value: Sendable>: @unchecked Sendable {
  case function(@Sendable (DependencyValues) -> Value)
  case keyPath(KeyPath<DependencyValues, Value>)
  case key(KeyReader<Value>)

  @inlinable @inline(__always)
  func read(_ values: DependencyValues) -> Value {
    switch self {
    case .function(let getter): getter(values)
    case .keyPath(let keyPath): values[keyPath: keyPath]
    case .key(let reader): reader.read(values)
    }
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

extension DependencyValues {
  /// The capture a wrapper or an escaped scope made here keeps: nil at the process root; during
  /// a build, one that does not keep this container alive, and the build is marked as keeping
  /// its scope.
  func captureForWrapper(_ hold: ScopeHold = .wrapper) -> CapturedScope? {
    guard !storage.isProcessRoot else { return nil }
    frame?.noteCapture(hold)
    return storage.capture(building: frame != nil)
  }
}
