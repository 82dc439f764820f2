/// A hook through which the core reports problems to a test runner; for TinyDependencyTesting.
///
/// The core never imports Testing or XCTest. When TinyDependencyTesting is linked into the
/// process, the core finds its router by name at run time and reports through it, so a problem
/// becomes a failed Swift Testing or XCTest test; otherwise it goes to standard error.
/// `package`: only TinyDependencyTesting conforms.
package protocol DependencyIssueRouting {
  /// Records `message` as an issue of the running test, if there is one; returns whether it did.
  /// With no `site`, the problem was found inside the library, and the test is the place to
  /// point at.
  static func record(_ message: String, at site: SourceSite?) -> Bool
}

/// Where a user's call was made, for the issues that point at it.
@usableFromInline
package struct SourceSite: Sendable, CustomStringConvertible {
  package let fileID: String
  package let filePath: String
  package let line: Int
  package let column: Int

  /// The site of a call, from its `#fileID`, `#filePath`, `#line` and `#column` arguments.
  @usableFromInline
  package init(_ fileID: String, _ filePath: String, _ line: Int, _ column: Int) {
    (self.fileID, self.filePath, self.line, self.column) = (fileID, filePath, line, column)
  }

  /// The file ID and line, as messages name a call.
  @usableFromInline
  package var description: String { "\(fileID):\(line)" }
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

  /// Whether overrides are being applied on this task: a test trait's or helper's `update`, or
  /// a `withDependencies` update in the test context. A key-path write reads the property first;
  /// the built-ins' placeholders built by that read stay quiet.
  package static var isApplyingOverrides: Bool { applyingOverrides.get() }

  /// The task-local behind ``isApplyingOverrides``, spelled out rather than with the
  /// `@TaskLocal` macro.
  package static let applyingOverrides = TaskLocal<Bool>(wrappedValue: false)

  /// Whether a test trait is writing a value through a key path on this task, as in
  /// `.dependency(\.date.now, …)`: the write reads the last property first, which calls a
  /// built-in's placeholder without the test using it.
  package static var isWritingThroughKeyPath: Bool { writingThroughKeyPath.get() }

  /// The task-local behind ``isWritingThroughKeyPath``.
  package static let writingThroughKeyPath = TaskLocal<Bool>(wrappedValue: false)

  /// Reports a problem to the running test, or to standard error outside tests: after the
  /// call's site (`fileID:line: message`) when there is one, else after the library's name.
  package static func report(_ message: String, at site: SourceSite? = nil) {
    if let router, router.record(message, at: site) { return }
    SystemInterface.writeToStandardError((site.map { "\($0): " } ?? "TinyDependency: ") + message)
  }
}

/// A key whose test value is a placeholder that reports each use itself, naming the
/// dependency's key path and the override to write: strict mode does not also report it as a
/// live fallback. For TinyDependencyBuiltins' keys; underscored: not for use outside the
/// package.
package protocol _ReportsItsOwnUses {}
