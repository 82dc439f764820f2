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
