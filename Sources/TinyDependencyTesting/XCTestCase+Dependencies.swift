public import TinyDependency
public import XCTest

extension XCTestCase {
  /// Runs `operation` with a fresh test container, as the Swift Testing traits do, and routes
  /// TinyDependency's issues (strict mode, the validator) to this test case as failures.
  ///
  /// A call inside another (one in `invokeTest()`, one in the test) starts from the outer
  /// call's container and keeps its strict mode. When the outermost call returns, its container
  /// ends: a later read through it (work the test did not wait for) is reported, as a failure
  /// of the running test in strict mode, on standard error otherwise. In strict mode, every
  /// override set by `update` or by `withDependencies` inside `operation` that no read used
  /// fails the test.
  ///
  /// Without this helper, each test method still gets a root container of its own while
  /// TinyDependencyTesting is linked.
  ///
  /// Call it from a test method, or wrap every test by overriding `invokeTest()`:
  ///
  /// ```swift
  /// final class CheckoutTests: XCTestCase {
  ///   override func invokeTest() {
  ///     withTestDependencies(strict: true) { super.invokeTest() }
  ///   }
  /// }
  /// ```
  ///
  /// Failures that strict mode records are recorded at the innermost call (in the test method,
  /// or else in `invokeTest()`), since XCTest does not know where a test method is declared.
  ///
  /// - Parameters:
  ///   - strict: Whether a key read without a `testValue` of its own, an override that nothing
  ///     read, or a read after the end fails the test.
  ///   - update: Sets the values the test runs with.
  ///   - file: The file of the call, where strict mode's failures are recorded.
  ///   - line: The line of the call.
  ///   - operation: The test's work.
  /// - Returns: What `operation` returns.
  /// - Throws: What `update` or `operation` throws.
  public func withTestDependencies<R>(
    strict: Bool = false,
    _ update: (inout DependencyValues) throws -> Void,
    file: StaticString = #filePath,
    line: UInt = #line,
    operation: () throws -> R
  ) rethrows -> R {
    // Nested calls (one in `invokeTest()`, one in a test) build on the outer call's container.
    let isOutermost = XCTestScopes.current == nil
    var values =
      isOutermost
      ? DependencyValues(context: .test, testScope: TestScope(name: name, strict: false))
      : DependencyValues.current
    let strictAround = values.reportsLiveFallbacks
    values.reportsLiveFallbacks = false
    try IssueReporter.applyingOverrides.withValue(true) { try update(&values) }
    values.reportsLiveFallbacks = strict || strictAround
    // Values `update` built with strict mode off would hide a live fallback from the test.
    if values.reportsLiveFallbacks { values.rebuildValues() }
    // The innermost call is the nearest to the test: in the test method rather than in
    // `invokeTest()`.
    let scope = XCTestScopes.Scope(testCase: self, filePath: "\(file)", line: Int(line))
    if strict { values.testScope?.makeStrict() }
    values.testScope?.forgetReads()
    defer {
      if isOutermost, let scope = values.testScope {
        let unused = scope.end()
        if scope.isStrict && !unused.isEmpty {
          recordDependencyFailure(
            DependencyTrait.unusedOverridesMessage(unused, test: name),
            filePath: "\(file)",
            line: Int(line)
          )
        }
      }
    }
    return try withDependencies(values) {
      try XCTestScopes.$current.withValue(scope) {
        try operation()
      }
    }
  }

  /// Runs `operation` with a fresh test container, routing TinyDependency's issues to this
  /// test case as failures; see ``withTestDependencies(strict:_:file:line:operation:)``.
  ///
  /// - Parameters:
  ///   - strict: Whether a key read without a `testValue` of its own fails the test.
  ///   - file: The file of the call, where strict mode's failures are recorded.
  ///   - line: The line of the call.
  ///   - operation: The test's work.
  /// - Returns: What `operation` returns.
  /// - Throws: What `operation` throws.
  public func withTestDependencies<R>(
    strict: Bool = false,
    file: StaticString = #filePath,
    line: UInt = #line,
    operation: () throws -> R
  ) rethrows -> R {
    try withTestDependencies(strict: strict, { _ in }, file: file, line: line, operation: operation)
  }

  func recordDependencyFailure(_ message: String, filePath: String, line: Int) {
    #if canImport(Darwin)
      record(
        XCTIssue(
          type: .assertionFailure,
          compactDescription: message,
          sourceCodeContext: XCTSourceCodeContext(
            location: XCTSourceCodeLocation(filePath: filePath, lineNumber: line)
          )
        )
      )
    #else
      recordFailure(withDescription: message, inFile: filePath, atLine: line, expected: true)
    #endif
  }
}

/// Task-local state of the XCTest integration.
enum XCTestScopes {
  /// The test case whose dependencies are current.
  ///
  /// `@unchecked Sendable`: XCTest runs a test case's methods on one thread; the test case is
  /// only used to record failures, which XCTest itself synchronizes.
  struct Scope: @unchecked Sendable {
    let testCase: XCTestCase
    /// Where issues raised inside the library are recorded: the innermost
    /// `withTestDependencies` call of the test.
    let filePath: String
    let line: Int
  }

  @TaskLocal static var current: Scope?
}
