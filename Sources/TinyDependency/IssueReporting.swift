/// A hook through which the core reports problems to a test runner; for TinyDependencyTesting.
///
/// The core never imports Testing or XCTest. When TinyDependencyTesting is linked into the
/// process, the core finds its router by name at run time and reports through it, so a problem
/// becomes a failed Swift Testing or XCTest test; otherwise it goes to standard error.
/// `package`: only TinyDependencyTesting conforms.
package protocol DependencyIssueRouting {
  /// Records `message` as an issue of the running test, if there is one; returns whether it did.
  static func record(
    _ message: String,
    fileID: String,
    filePath: String,
    line: Int,
    column: Int
  ) -> Bool
}

/// Where the core's non-fatal problems go.
package enum IssueReporter {
  /// The mangled name of TinyDependencyTesting's router, `TinyDependencyTesting.IssueRouter`.
  package static let routerName = "21TinyDependencyTesting11IssueRouterO"

  /// The router, when TinyDependencyTesting is linked; looked up once.
  ///
  /// `nonisolated(unsafe)`: a metatype is immutable, and the router only has static methods
  /// that are safe to call from any thread.
  nonisolated(unsafe) package static let router: (any DependencyIssueRouting.Type)? =
    _typeByName(routerName) as? any DependencyIssueRouting.Type

  /// Whether a test trait is applying its overrides on this task. A key-path write reads the
  /// property first; that read is the trait's, so placeholders that report reads stay quiet.
  package static var isApplyingOverrides: Bool { applyingOverrides.get() }

  /// The task-local behind ``isApplyingOverrides``, spelled out rather than with the
  /// `@TaskLocal` macro.
  package static let applyingOverrides = TaskLocal<Bool>(wrappedValue: false)

  /// Reports a problem to the running test, or to standard error outside tests.
  package static func report(
    _ message: String,
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
  ) {
    if let router,
      router.record(message, fileID: fileID, filePath: filePath, line: line, column: column)
    {
      return
    }
    SystemInterface.writeToStandardError("TinyDependency: " + message)
  }
}
