import TinyDependency

/// Applies a modifier's overrides as `withDependencies` applies its `update`.
enum DependencyOverrides {
  /// Runs `update` on `values`; in the test context a key-path write's read stays quiet, as it
  /// does in `withDependencies`.
  static func apply(
    _ update: (inout DependencyValues) -> Void,
    to values: inout DependencyValues
  ) {
    if values.context == .test {
      IssueReporter.applyingOverrides.withValue(true) { update(&values) }
    } else {
      update(&values)
    }
  }
}
