public import TinyDependency
public import XCTest

extension XCTestCase {
  /// Runs `operation` with a fresh test container, as the Swift Testing traits do, and routes
  /// TinyDependency's issues (strict mode, the validator) to this test case as failures.
  ///
  /// A call inside another (one in `invokeTest()`, one in the test) starts from the outer
  /// call's container and keeps its strict mode.
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
  /// - Parameters:
  ///   - strict: Whether a key read without a `testValue` of its own fails the test.
  ///   - update: Sets the values the test runs with.
  ///   - operation: The test's work.
  /// - Returns: What `operation` returns.
  /// - Throws: What `update` or `operation` throws.
  public func withTestDependencies<R>(
    strict: Bool = false,
    _ update: (inout DependencyValues) throws -> Void,
    operation: () throws -> R
  ) rethrows -> R {
    // Nested calls (one in `invokeTest()`, one in a test) build on the outer call's container.
    var values =
      XCTestScopes.current == nil ? DependencyValues(context: .test) : DependencyValues.current
    let strictAround = values.reportsLiveFallbacks
    values.reportsLiveFallbacks = false
    try IssueReporter.$isApplyingOverrides.withValue(true) { try update(&values) }
    values.reportsLiveFallbacks = strict || strictAround
    return try withDependencies(values) {
      try XCTestScopes.$current.withValue(XCTestScopes.Scope(testCase: self)) {
        try operation()
      }
    }
  }

  /// Runs `operation` with a fresh test container, routing TinyDependency's issues to this
  /// test case as failures; see ``withTestDependencies(strict:_:operation:)``.
  ///
  /// - Parameters:
  ///   - strict: Whether a key read without a `testValue` of its own fails the test.
  ///   - operation: The test's work.
  /// - Returns: What `operation` returns.
  /// - Throws: What `operation` throws.
  public func withTestDependencies<R>(
    strict: Bool = false,
    operation: () throws -> R
  ) rethrows -> R {
    try withTestDependencies(strict: strict, { _ in }, operation: operation)
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
  }

  @TaskLocal static var current: Scope?
}
