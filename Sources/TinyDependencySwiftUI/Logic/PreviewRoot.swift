import TinyDependency

/// The root container of one preview: made fresh for the preview's own view tree.
///
/// A preview's root view holds one in `@State`, so each preview, and each run of the same
/// preview body (a new view tree), starts from a root of its own, built for the preview
/// context. Nothing the app's entry point prepared (`prepareDependencies` sets the process
/// root) and nothing another preview built is seen here.
@MainActor
final class PreviewRoot {
  private var root: DependencyValues?
  /// How many roots were made: one for the life of the preview.
  private(set) var roots = 0

  nonisolated init() {}

  /// The preview's root, made on first use with `update`'s values.
  func values(_ update: (inout DependencyValues) -> Void) -> DependencyValues {
    if let root { return root }
    var fresh = DependencyValues(context: .preview)
    DependencyOverrides.apply(update, to: &fresh)
    root = fresh
    roots += 1
    return fresh
  }
}
