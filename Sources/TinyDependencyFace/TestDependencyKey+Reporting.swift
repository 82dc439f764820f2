public import TinyDependency

extension TestDependencyKey {
  /// Whether a test value read now should report that it is unimplemented: false while a test's
  /// overrides are being applied.
  ///
  /// Writing `$0.defaultDatabase = …` in `withDependencies`, a `.dependency` or `.dependencies`
  /// trait, or `prepareDependencies` reads the property first, which builds the key's test value;
  /// that read is not the test's use of it. A test value that reports its use asks first, so a
  /// test that overrides the key hears nothing:
  ///
  /// ```swift
  /// static var testValue: any DatabaseWriter {
  ///   if shouldReportUnimplemented {
  ///     reportIssue("A blank, in-memory database is being used. Override \\.defaultDatabase.")
  ///   }
  ///   return try! DatabaseQueue()
  /// }
  /// ```
  public static var shouldReportUnimplemented: Bool {
    !IssueReporter.isApplyingOverrides && !IssueReporter.isWritingThroughKeyPath
  }
}
