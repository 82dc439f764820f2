extension Dependency {
  /// Reads a dependency as the concrete type a test set it to, such as the `TestClock` behind
  /// `any Clock<Duration>`, in a test.
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
    self.init(reader: { values in
      let value = values[keyPath: keyPath]
      guard let concrete = value as? Value else {
        stopWithMessage(Self.castFailure(of: value, property: "\(keyPath)"))
      }
      return concrete
    })
  }

  /// Reads a dependency by its key as the concrete type a test set it to.
  ///
  /// - Parameters:
  ///   - key: The key type.
  ///   - type: The concrete type to read it as.
  public init<Key: TestDependencyKey>(_ key: Key.Type, as type: Value.Type) {
    self.init(reader: { values in
      let value = values[Key.self]
      guard let concrete = value as? Value else {
        stopWithMessage(Self.castFailure(of: value, property: "[\(Key.self).self]"))
      }
      return concrete
    })
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
