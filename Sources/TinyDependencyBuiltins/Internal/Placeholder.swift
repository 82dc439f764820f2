import TinyDependency

/// How the built-ins' test values fail loudly.
enum Placeholder {
  /// Records that a test used the built-in `property` without overriding it: a call of a
  /// placeholder (a date, a UUID, a clock's time or sleep, a random draw), reported wherever it
  /// happens, a trait's closure or a `withDependencies` update included.
  ///
  /// Quiet only while a trait writes through a key path (`.dependency(\.date.now, …)`), which
  /// reads the last property before it sets it.
  ///
  /// The issue is recorded at `site`, the test's call, when the placeholder's API can take it
  /// (`uuid()`, `date()`, `withRandomNumberGenerator { … }`); otherwise the test runner's router
  /// places it at the test (or at the innermost `withTestDependencies` call).
  static func report(
    _ property: String,
    returned placeholder: String,
    fix: String,
    at site: SourceSite? = nil
  ) {
    guard !IssueReporter.isWritingThroughKeyPath else { return }
    IssueReporter.report(message(property, returned: placeholder, fix: fix), at: site)
  }

  /// Records that a test read the built-in `property`, whose value is the placeholder itself
  /// (a calendar, a locale, a time zone), without overriding it.
  ///
  /// Quiet while overrides apply (a trait's or helper's closure, a `withDependencies` update,
  /// `prepareDependencies` in a test): a key-path write such as `$0.calendar.timeZone = …` reads
  /// the property first, and the test then gets the value it wrote.
  static func reportBuild(_ property: String, returned placeholder: String, fix: String) {
    guard !IssueReporter.isApplyingOverrides else { return }
    IssueReporter.report(message(property, returned: placeholder, fix: fix))
  }

  private static func message(_ property: String, returned placeholder: String, fix: String)
    -> String
  {
    "Unimplemented: @Dependency(\\.\(property)) was used in a test without an override; it "
      + "returned a placeholder (\(placeholder)). Override it for the test: \(fix)."
  }
}
