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
  let update: @Sendable (inout DependencyValues) async throws -> Void
  let strict: Bool?

  /// Applies to every test in a suite, not to the suite as a whole.
  public var isRecursive: Bool { true }

  /// Provides a scope for each test case; none for a suite itself.
  public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
    testCase == nil ? nil : self
  }

  /// Runs the test case with a fresh root container (or the enclosing trait's), updated.
  ///
  /// The outermost trait of a test case ends its container when the test returns: a later read
  /// through it is reported, and in strict mode so is every override that no read used.
  public func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    let isOutermost = !TestScopes.isInsideTrait
    var values =
      isOutermost
      ? DependencyValues(context: .test, testScope: TestScope(name: test.name, strict: false))
      : DependencyValues.current
    let strictAround = values.reportsLiveFallbacks
    let scope = values.testScope
    if scope != nil { values.strictMode = true }
    do {
      try await IssueReporter.applyingOverrides.withValue(true) {
        try await TestScope.deferringFallbacks.withValue(scope) { try await update(&values) }
      }
    } catch let failure as ValueFailure {
      // The test would run without the value it was given: one issue, naming the key, and the
      // test's body does not run.
      Issue.record(
        failure.error,
        Comment(rawValue: failure.message(test: test.name)),
        sourceLocation: test.sourceLocation
      )
      if isOutermost { _ = values.testScope?.end() }
      return
    }
    values.settleStrictMode(strict ?? strictAround)
    defer {
      if isOutermost, let scope = values.testScope {
        let unused = scope.end()
        if scope.isStrict && !unused.isEmpty {
          Issue.record(
            Comment(rawValue: DependencyTrait.unusedOverridesMessage(unused, test: test.name)),
            sourceLocation: test.sourceLocation
          )
        }
      }
    }
    try await withDependencies(values) {
      try await TestScopes.$isInsideTrait.withValue(true) {
        try await function()
      }
    }
  }

  /// An error thrown while a `.dependency` trait made its value, with the key it was for.
  struct ValueFailure: Error {
    /// The key's name, as messages give it: `GreetingKey`.
    let key: String
    /// What the value's expression threw.
    let error: any Error

    /// The issue's message: what threw, for which key, that the test did not run, and the fix.
    func message(test: String) -> String {
      "The value that a .dependency trait makes for \(key) threw \(error), so test \(test) did "
        + "not run. Make the value without throwing, or set it inside the test, where the test "
        + "can handle the error."
    }
  }

  /// The report of overrides that no read used.
  static func unusedOverridesMessage(_ keys: [String], test: String) -> String {
    "Test \(test) overrode \(keys.joined(separator: ", ")) but nothing read "
      + (keys.count == 1 ? "it" : "them")
      + ": the override has no effect, so the test may pass for the wrong reason. Remove it, "
      + "or make the code under test read the dependency from the test's scope."
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
  /// The closure may be `async` and may throw: a thrown error fails the test case.
  ///
  /// ```swift
  /// @Test(.dependencies { $0.session = try await Session.signedIn() })
  /// ```
  public static func dependencies(
    _ update: @escaping @Sendable (inout DependencyValues) async throws -> Void
  ) -> Self {
    DependencyTrait(update: update, strict: nil)
  }

  /// Runs each test case with a fresh container in which one dependency is overridden.
  ///
  /// Writing through a key path reads the property first, which builds the key's test value
  /// once; for an input, or a key whose test value must not be built, use
  /// ``dependency(_:_:)-(Key.Type,_)``.
  ///
  /// `value` is evaluated anew for each test case, so a stateful test double given to a suite
  /// or to a parameterized test is never shared between test cases. It may throw, as in
  /// `.dependency(\.database, try Database.inMemory())`: the error is recorded as an issue of
  /// the test case that names the key, and the test's body does not run.
  ///
  /// - Parameters:
  ///   - keyPath: The registered property, such as `\.clock`.
  ///   - value: The value to use, made for each test case.
  public static func dependency<Value>(
    _ keyPath: any WritableKeyPath<DependencyValues, Value> & Sendable,
    _ value: @autoclosure @escaping @Sendable () throws -> Value
  ) -> Self {
    DependencyTrait(
      update: update(applying: KeyPathSetter(keyPath: keyPath, make: value)),
      strict: nil
    )
  }

  /// Runs each test case with a fresh container in which one key is set, without reading it.
  ///
  /// ```swift
  /// @Test(.dependency(BaseURLKey.self, "https://example.com"))
  /// ```
  ///
  /// `value` is evaluated anew for each test case; an error it throws is recorded as an issue
  /// of the test case that names the key, and the test's body does not run.
  ///
  /// - Parameters:
  ///   - key: The key type.
  ///   - value: The value to use, made for each test case.
  public static func dependency<Key: DependencyKey>(
    _ key: Key.Type,
    _ value: @autoclosure @escaping @Sendable () throws -> Key.Value
  ) -> Self {
    DependencyTrait(update: update(applying: KeySetter<Key>(make: value)), strict: nil)
  }

  /// Reports, as issues of the test, keys read without a `testValue` of their own, overrides
  /// that no read used, and reads after the test ended.
  ///
  /// A read without a `testValue` still returns the live default, as it would without the
  /// trait; the issue names the key and the builds that read it. At the end of the test, every
  /// key the test overrode (with a trait, or `withDependencies` inside it) that no read used is
  /// reported by name. A read through the test's dependencies after it ended (a `Task` it did
  /// not await, say) becomes an issue instead of a warning.
  public static var strictDependencies: Self {
    DependencyTrait(update: { _ in }, strict: true)
  }
}

extension DependencyValues {
  /// Turns strict mode on or off for the test, after a trait or helper applied its overrides
  /// with live fallbacks recorded (see `TestScope.deferringFallbacks`).
  ///
  /// Nothing is rebuilt: strict mode adds reports and never changes a value. A live fallback
  /// built while the overrides applied is reported when the test reads it, or a value built
  /// from it, without an override in between.
  mutating func settleStrictMode(_ strict: Bool) {
    strictMode = strict
    if strict { testScope?.makeStrict() }
  }
}

/// Task-local state of the traits.
enum TestScopes {
  /// Whether a ``DependencyTrait`` already gave the current test its container.
  @TaskLocal static var isInsideTrait = false
}

/// Sets one key on a container.
protocol ValueSetter: Sendable {
  /// Makes the value and sets it; throws ``DependencyTrait/ValueFailure`` when making it threw.
  func apply(to values: inout DependencyValues) throws
}

/// An update closure that applies `setter`; made outside any generic context, so the closure
/// captures no metatype.
func update(applying setter: any ValueSetter) -> @Sendable (inout DependencyValues) throws -> Void {
  { try setter.apply(to: &$0) }
}

/// Sets one key; the key type is a generic parameter rather than a captured metatype.
struct KeySetter<Key: DependencyKey>: ValueSetter {
  let make: @Sendable () throws -> Key.Value

  func apply(to values: inout DependencyValues) throws {
    do {
      values[Key.self] = try make()
    } catch {
      throw DependencyTrait.ValueFailure(key: KeyType(Key.self).name, error: error)
    }
  }
}

/// Sets one property through its key path.
struct KeyPathSetter<Value>: ValueSetter {
  let keyPath: any WritableKeyPath<DependencyValues, Value> & Sendable
  let make: @Sendable () throws -> Value

  func apply(to values: inout DependencyValues) throws {
    let made: Value
    do {
      made = try make()
    } catch {
      throw DependencyTrait.ValueFailure(key: KeyPathNaming.name(of: keyPath), error: error)
    }
    // Writing through the key path reads its last property first (`now` of `\.date.now`): that
    // read is not the test's use of a placeholder.
    IssueReporter.writingThroughKeyPath.withValue(true) { values[keyPath: keyPath] = made }
  }
}
