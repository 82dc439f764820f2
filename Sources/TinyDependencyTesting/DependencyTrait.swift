public import Testing
public import TinyDependency

/// A Swift Testing trait that runs a test, or every test of a suite, with its own dependencies.
///
/// ```swift
/// @Suite(.dependency(\.clock, .fixed(noon)))
/// struct CheckoutTests {
///   @Test(.dependencies { $0.logger = RecordingLogger() })
///   func paysOnce() { … }
/// }
/// ```
///
/// Every test case (each argument of a parameterized test) starts from a fresh root container
/// in the test context, so values built by one test, stateful test doubles among them, are
/// never seen by another, even when tests run in parallel. Traits nest: a suite's overrides
/// apply first, then those of the test.
public struct DependencyTrait: SuiteTrait, TestTrait, TestScoping {
  let update: @Sendable (inout DependencyValues) -> Void
  let strict: Bool?

  /// Applies to every test in a suite, not to the suite as a whole.
  public var isRecursive: Bool { true }

  /// Provides a scope for each test case; none for a suite itself.
  public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
    testCase == nil ? nil : self
  }

  /// Runs the test case with a fresh root container (or the enclosing trait's), updated.
  public func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    var values =
      TestScopes.isInsideTrait ? DependencyValues.current : DependencyValues(context: .test)
    // A key-path write reads the property first: that read is the trait's, not the test's.
    let strictAround = values.reportsLiveFallbacks
    values.reportsLiveFallbacks = false
    IssueReporter.$isApplyingOverrides.withValue(true) { update(&values) }
    values.reportsLiveFallbacks = strict ?? strictAround
    try await withDependencies(values) {
      try await TestScopes.$isInsideTrait.withValue(true) {
        try await function()
      }
    }
  }
}

extension Trait where Self == DependencyTrait {
  /// Runs each test case with a fresh root container in the test context.
  public static var dependencies: Self {
    DependencyTrait(update: { _ in }, strict: nil)
  }

  /// Runs each test case with a fresh container, updated by `update`.
  ///
  /// - Parameter update: Sets the values the test runs with.
  public static func dependencies(
    _ update: @escaping @Sendable (inout DependencyValues) -> Void
  ) -> Self {
    DependencyTrait(update: update, strict: nil)
  }

  /// Runs each test case with a fresh container in which one dependency is overridden.
  ///
  /// Writing through a key path reads the property first, which builds the key's test value
  /// once; for an input, or a key whose test value must not be built, use
  /// ``dependency(_:_:)-(Key.Type,_)``.
  ///
  /// - Parameters:
  ///   - keyPath: The registered property, such as `\.clock`.
  ///   - value: The value to use.
  public static func dependency<Value: Sendable>(
    _ keyPath: any WritableKeyPath<DependencyValues, Value> & Sendable,
    _ value: Value
  ) -> Self {
    DependencyTrait(update: { $0[keyPath: keyPath] = value }, strict: nil)
  }

  /// Runs each test case with a fresh container in which one key is set, without reading it.
  ///
  /// ```swift
  /// @Test(.dependency(BaseURLKey.self, "https://example.com"))
  /// ```
  ///
  /// - Parameters:
  ///   - key: The key type.
  ///   - value: The value to use.
  public static func dependency<Key: DependencyKey>(_ key: Key.Type, _ value: Key.Value) -> Self {
    DependencyTrait(
      update: update(applying: KeySetter<Key>(value: UncheckedValue(value))),
      strict: nil
    )
  }

  /// Reports, as an issue of the test, every key read without a `testValue` of its own.
  ///
  /// The read still returns the live default, as it would without the trait; the issue names
  /// the key and the builds that read it.
  public static var strictDependencies: Self {
    DependencyTrait(update: { _ in }, strict: true)
  }
}

/// Task-local state of the traits.
enum TestScopes {
  /// Whether a ``DependencyTrait`` already gave the current test its container.
  @TaskLocal static var isInsideTrait = false
}

/// A value a `@Sendable` closure may capture. `@unchecked Sendable`: it holds a key's value,
/// which `DependencyKey` requires to be `Sendable`.
struct UncheckedValue<Value: Sendable>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// Sets one key on a container.
protocol ValueSetter: Sendable {
  func apply(to values: inout DependencyValues)
}

/// An update closure that applies `setter`; made outside any generic context, so the closure
/// captures no metatype.
func update(applying setter: any ValueSetter) -> @Sendable (inout DependencyValues) -> Void {
  { setter.apply(to: &$0) }
}

/// Sets one key; the key type is a generic parameter rather than a captured metatype.
struct KeySetter<Key: DependencyKey>: ValueSetter {
  let value: UncheckedValue<Key.Value>

  func apply(to values: inout DependencyValues) {
    values[Key.self] = value.value
  }
}
