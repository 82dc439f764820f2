/// A key that declares only its test and preview values, for a module that holds a client's
/// interface; a module that builds the live client adds the ``DependencyKey`` conformance.
///
/// ```swift
/// // In the interface module:
/// extension AnalyticsClient: TestDependencyKey {
///   static let testValue = AnalyticsClient(track: unimplemented("AnalyticsClient.track"))
/// }
///
/// // In the live module:
/// extension AnalyticsClient: DependencyKey {
///   static let defaultValue = AnalyticsClient(track: { event in send(event) })
/// }
/// ```
///
/// ``previewValue`` falls back as in swift-dependencies, where the compiler picks the fallback
/// in the module that declares this conformance: split across two modules, as above, to
/// ``testValue``; with both conformances in one module (in one file or two), and for a key that
/// is a ``DependencyKey`` from the start, to ``DependencyKey/defaultValue``. Declare
/// `previewValue` in the interface module to choose. A key with no live conformance read in the
/// default context reports an issue that names it and the fix, then uses its test value.
public protocol TestDependencyKey: _DependencyKeyMetatype {
  /// The type of the dependency's value.
  associatedtype Value: Sendable

  /// The value used in the test context; for a ``DependencyKey``, falls back to its
  /// ``DependencyKey/defaultValue``.
  static var testValue: Value { get }

  /// The value used in the preview context; falls back to ``testValue``, or to
  /// ``DependencyKey/defaultValue`` for a ``DependencyKey`` conformance in the same module.
  static var previewValue: Value { get }
}

extension TestDependencyKey {
  /// Falls back to ``testValue``.
  public static var previewValue: Value { testValue }
}

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
