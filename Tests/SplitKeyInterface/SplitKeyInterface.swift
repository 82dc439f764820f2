public import TinyDependency

// An interface module, as swift-dependencies' "Separating interface and implementation" lays
// one out: a key with its test value and no live value, and the property that reads it. The
// live conformance is added in MigrationTests, another module.

/// A key whose interface module declares only its test value.
public enum InterfaceOnlyKey: TestDependencyKey {
  /// The value tests read.
  public static let testValue = "test value"
}

extension DependencyValues {
  /// The key's value, registered where only the `TestDependencyKey` conformance is known.
  public var interfaceOnly: String {
    get { self[InterfaceOnlyKey.self] }
    set { self[InterfaceOnlyKey.self] = newValue }
  }
}
