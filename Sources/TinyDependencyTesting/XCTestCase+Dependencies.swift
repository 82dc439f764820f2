import Foundation
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
    let outer = XCTestScopes.current
    var values =
      outer == nil
      ? DependencyValues(context: .test, testScope: TestScope(name: name, strict: false))
      : DependencyValues.current
    // The innermost call is the nearest to the test: in the test method rather than in
    // `invokeTest()`. Issues raised inside the library, and the outermost call's report of
    // unused overrides, are recorded there.
    let site = outer?.site ?? XCTestScopes.Site()
    let scope = XCTestScopes.Scope(
      testCase: self,
      filePath: "\(file)",
      line: Int(line),
      depth: (outer?.depth ?? 0) + 1,
      site: site
    )
    site.enter(scope)
    return try XCTestScopes.$current.withValue(scope) {
      let strictAround = values.reportsLiveFallbacks
      let testScope = values.testScope
      if testScope != nil { values.strictMode = true }
      try IssueReporter.applyingOverrides.withValue(true) {
        try TestScope.deferringFallbacks.withValue(testScope) { try update(&values) }
      }
      values.settleStrictMode(strict || strictAround)
      defer {
        if outer == nil, let testScope {
          let unused = testScope.end()
          if testScope.isStrict && !unused.isEmpty {
            recordDependencyFailure(
              DependencyTrait.unusedOverridesMessage(unused, test: name),
              filePath: site.innermost?.filePath ?? scope.filePath,
              line: site.innermost?.line ?? scope.line
            )
          }
        }
      }
      return try withDependencies(values) { try operation() }
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
    /// How many calls enclose this one, itself included.
    let depth: Int
    /// Shared by the nested calls of one test.
    let site: Site
  }

  /// The innermost call a test made: where its outermost call records the overrides that
  /// nothing read. Shared by the nested calls of one test.
  final class Site: Sendable {
    private let deepest = Locked<(filePath: String, line: Int, depth: Int)?>(nil)

    /// Notes a call, which becomes the innermost if no call seen so far is nested deeper.
    func enter(_ scope: Scope) {
      deepest.withLock { deepest in
        if (deepest?.depth ?? 0) <= scope.depth {
          deepest = (scope.filePath, scope.line, scope.depth)
        }
      }
    }

    /// The file and line of the innermost call seen.
    var innermost: (filePath: String, line: Int, depth: Int)? { deepest.withLock { $0 } }
  }

  @TaskLocal static var current: Scope?
}
