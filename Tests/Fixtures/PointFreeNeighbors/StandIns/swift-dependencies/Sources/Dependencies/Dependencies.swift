/// A key as swift-dependencies declares it.
public protocol DependencyKey {
  /// The value's type.
  associatedtype Value: Sendable
  /// The live value.
  static var liveValue: Value { get }
}
