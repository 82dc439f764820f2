/// A hook through which the core asks a test runner for the current test's root container; for
/// TinyDependencyTesting.
///
/// The core finds TinyDependencyTesting's router by name at run time (see
/// `DependencyIssueRouting`). When it also conforms to this protocol, a read with nothing bound
/// asks it for the running test's root container instead of using the process-wide one.
/// `package`: only TinyDependencyTesting conforms.
package protocol DependencyTestRootProviding {
  /// The root container of the test running in the calling task or thread, if there is one.
  static func currentTestRoot() -> DependencyValues?

  /// The name of the test running in the calling task or thread, if there is one.
  static func currentTestName() -> String?

  /// Replaces the running test's root, `old`, with `new`, for a `prepareDependencies` that
  /// chose a context; returns false when `old` is not the root it keeps for the test.
  static func replaceCurrentTestRoot(_ old: DependencyValues, with new: DependencyValues) -> Bool
}

/// The per-test roots seen from the core: where a read with nothing bound goes.
@usableFromInline
package enum TestRoots {
  /// TinyDependencyTesting's router, when it is linked; looked up once.
  ///
  /// `nonisolated(unsafe)`: a metatype is immutable, and the router only has static methods
  /// that are safe to call from any thread.
  nonisolated(unsafe) static let provider: (any DependencyTestRootProviding.Type)? =
    IssueReporter.router as? any DependencyTestRootProviding.Type

  /// The container of a read with nothing bound, in a process where TinyDependencyTesting is
  /// linked: the running test's root, or the process root outside tests.
  @usableFromInline @inline(never)
  static func unboundValues() -> DependencyValues {
    provider?.currentTestRoot() ?? DependencyValues.processRoot
  }

}

extension DependencyValues {
  /// Whether this container and `other` are the same, not copies that diverged.
  package func isSameContainer(as other: DependencyValues) -> Bool {
    storage === other.storage
  }
}
