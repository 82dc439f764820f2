/// Part of the seam: a layer that gives reads with nothing bound a root of its own (the testing
/// product: each test's root container).
///
/// The core finds the issue router by name at run time (see `DependencyIssueRouting`). When it
/// also conforms to this protocol, a read with nothing bound asks it for the current root
/// instead of using the process-wide one. `package`: only TinyDependencyTesting conforms.
package protocol DependencyRootProviding {
  /// The root container of the test running in the calling task or thread, if there is one.
  static func currentRoot() -> DependencyValues?

  /// The name of the test running in the calling task or thread, if there is one.
  static func currentRootName() -> String?

  /// Replaces the running test's root, `old`, with `new`, for a `prepareDependencies` that
  /// chose a context; returns false when `old` is not the root it keeps for the test.
  static func replaceCurrentRoot(_ old: DependencyValues, with new: DependencyValues) -> Bool
}

/// Where a read with nothing bound goes: the root a layer provides, else the process root.
@usableFromInline
package enum UnboundRoots {
  /// TinyDependencyTesting's router, when it is linked; looked up once.
  ///
  /// `nonisolated(unsafe)`: a metatype is immutable, and the router only has static methods
  /// that are safe to call from any thread.
  nonisolated(unsafe) static let provider: (any DependencyRootProviding.Type)? =
    IssueReporter.router as? any DependencyRootProviding.Type

  /// The container of a read with nothing bound, in a process where TinyDependencyTesting is
  /// linked: the running test's root, or the process root outside tests.
  @usableFromInline @inline(never)
  static func unboundValues() -> DependencyValues {
    provider?.currentRoot() ?? DependencyValues.processRoot
  }

}
