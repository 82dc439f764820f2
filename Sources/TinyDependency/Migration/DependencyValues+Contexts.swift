extension DependencyValues {
  /// A container for the default (live) context, with nothing overridden: `$0 = .live`.
  public static var live: DependencyValues { DependencyValues(context: .default) }

  /// A container for the test context, with nothing overridden: `$0 = .test`.
  public static var test: DependencyValues { DependencyValues(context: .test) }

  /// A container for the preview context, with nothing overridden: `$0 = .preview`.
  public static var preview: DependencyValues { DependencyValues(context: .preview) }
}
