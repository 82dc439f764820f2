// A key that conforms to TestDependencyKey only (its live conformance in another module, or
// none): read under a stand-in key until the live one is linked (TestDependencyKey.swift holds
// the protocol).

/// Stands in for a key that has only test and preview values: the core builds and caches
/// through it, under an identity of its own; messages, graphs and findings name `Base`.
enum TestOnlyKey<Base: TestDependencyKey>: DependencyKey, WrapperKey {
  typealias Value = Base.Value
  static var wrappedKey: Any.Type { Base.self }

  static var defaultValue: Value {
    IssueReporter.report(
      "\(_typeName(Base.self, qualified: false)) has no live value: it conforms to "
        + "TestDependencyKey only, and was read in the default context. Conform it to "
        + "DependencyKey with a defaultValue in the module that builds the live client, and link "
        + "that module into the app; its testValue is used meanwhile."
    )
    return Base.testValue
  }

  static var testValue: Value { Base.testValue }

  static var previewValue: Value { Base.previewValue }
}

extension DependencyValues {
  /// Reads or overrides the value of a key that may have only test and preview values.
  ///
  /// A key that is also a ``DependencyKey`` (in a module linked into the process) is read as
  /// one, whichever module registered the property.
  ///
  /// - Parameter key: The key type.
  @_disfavoredOverload
  public subscript<Key: TestDependencyKey>(key: Key.Type) -> Key.Value {
    get {
      // A key is read under its own identity when it has a live conformance, else under its
      // stand-in's: look both up before asking the runtime which, which costs more than both.
      if let value = valueOnFastPath(of: ObjectIdentifier(key), as: Key.Value.self) {
        return value
      }
      if let value = valueOnFastPath(
        of: ObjectIdentifier(TestOnlyKey<Key>.self),
        as: Key.Value.self
      ) {
        return value
      }
      if let live = Key.self as? any DependencyKey.Type {
        return readLive(live, as: Key.Value.self)
      }
      return self[TestOnlyKey<Key>.self]
    }
    set {
      if let live = Key.self as? any DependencyKey.Type {
        setLive(live, newValue)
      } else {
        self[TestOnlyKey<Key>.self] = newValue
      }
    }
  }

  private func readLive<Live: DependencyKey, Value>(_ key: Live.Type, as _: Value.Type) -> Value {
    // `Live` is the key that was read, so its value is a `Value`.
    self[key] as! Value
  }

  private mutating func setLive<Live: DependencyKey, Value>(_ key: Live.Type, _ value: Value) {
    self[key] = value as! Live.Value
  }
}

extension Dependency {
  /// Creates a dependency read by a key type that may have only test and preview values.
  ///
  /// ```swift
  /// @Dependency(AnalyticsClient.self) var analytics
  /// ```
  ///
  /// - Parameter key: The key type.
  @_disfavoredOverload
  public init<Key: TestDependencyKey>(_ key: Key.Type) where Key.Value == Value {
    self.init(reader: { $0[Key.self] })
  }
}
