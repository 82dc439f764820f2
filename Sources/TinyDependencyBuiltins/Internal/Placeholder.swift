import TinyDependency

/// How the built-ins' test values fail loudly.
enum Placeholder {
  /// Records that a test read the built-in `property` without overriding it.
  ///
  /// Quiet while a test trait applies its overrides: a key-path write reads the property first.
  static func report(_ property: String, returned placeholder: String, fix: String) {
    guard !IssueReporter.isApplyingOverrides else { return }
    IssueReporter.report(
      "Unimplemented: @Dependency(\\.\(property)) was used in a test without an override; it "
        + "returned a placeholder (\(placeholder)). Override it for the test: \(fix)."
    )
  }
}
