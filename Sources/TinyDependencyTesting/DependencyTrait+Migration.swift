public import Testing
public import TinyDependency

extension Trait where Self == DependencyTrait {
  /// Runs each test case with a fresh container in which a type that is its own key is set.
  ///
  /// ```swift
  /// @Test(.dependency(APIClient.mock))
  /// ```
  ///
  /// `value` is evaluated anew for each test case; an error it throws fails the test case.
  ///
  /// - Parameter value: The value to use, made for each test case.
  public static func dependency<Value: TestDependencyKey>(
    _ value: @autoclosure @escaping @Sendable () throws -> Value
  ) -> Self where Value.Value == Value {
    DependencyTrait(update: update(applying: OwnKeySetter<Value>(make: value)), strict: nil)
  }
}

/// Sets a type that is its own key.
struct OwnKeySetter<Value: TestDependencyKey>: Sendable where Value.Value == Value {
  let make: @Sendable () throws -> Value

  func apply(to values: inout DependencyValues) throws {
    values[Value.self] = try make()
  }
}

/// An update closure that applies `setter`; made outside the generic context of the trait.
func update<Value>(applying setter: OwnKeySetter<Value>)
  -> @Sendable (inout DependencyValues) throws -> Void
{
  { try setter.apply(to: &$0) }
}

extension Dependency {
  /// Reads a dependency as the concrete type a test set it to, such as the `TestClock` behind
  /// `any Clock<Duration>`.
  ///
  /// ```swift
  /// @Dependency(\.continuousClock, as: TestClock<Duration>.self) var clock
  /// ```
  ///
  /// A read whose value is not a `Value` stops, naming the property and the override to set.
  ///
  /// - Parameters:
  ///   - keyPath: The registered property, such as `\.continuousClock`.
  ///   - type: The concrete type to read it as.
  public init<Base>(
    _ keyPath: any KeyPath<DependencyValues, Base> & Sendable,
    as type: Value.Type
  ) {
    self.init { values in
      let value = values[keyPath: keyPath]
      guard let concrete = value as? Value else {
        fatalError(Self.castFailure(of: value, property: "\(keyPath)"))
      }
      return concrete
    }
  }

  /// Reads a dependency by its key as the concrete type a test set it to.
  ///
  /// - Parameters:
  ///   - key: The key type.
  ///   - type: The concrete type to read it as.
  public init<Key: TestDependencyKey>(_ key: Key.Type, as type: Value.Type) {
    self.init { values in
      let value = values[Key.self]
      guard let concrete = value as? Value else {
        fatalError(Self.castFailure(of: value, property: "[\(Key.self).self]"))
      }
      return concrete
    }
  }

  /// The message of a read whose value is not of the type asked for.
  static func castFailure(of value: Any, property: String) -> String {
    """
    TinyDependency: @Dependency(\(property), as: \(Value.self).self) read a \
    \(Swift.type(of: value)), which is not a \(Value.self). Override it for the test, for \
    example with .dependencies { $0… = \(Value.self)(…) } on the suite or test.
    """
  }
}
