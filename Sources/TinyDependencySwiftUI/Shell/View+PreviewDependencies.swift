public import TinyDependency

#if canImport(SwiftUI)
  public import SwiftUI
#else
  public import SwiftUIStandIn
#endif

extension View {
  /// Gives this view a fresh preview root: a container of its own, built for the preview context.
  ///
  /// Put it at the root of a preview on systems older than iOS 18 and macOS 15 (newer ones use
  /// the `.dependencies` preview trait). The root is made once for the view tree and kept across
  /// redraws; another preview, or another run of this one, gets a new one. It does not derive
  /// from the process root, so what the app's `prepareDependencies` set does not reach it.
  ///
  /// ```swift
  /// #Preview {
  ///   DependenciesReader { _ in
  ///     QuoteView(model: QuoteModel())
  ///   }
  ///   .previewDependencies {
  ///     $0.quotes = QuoteClient { "a quote for this preview" }
  ///   }
  /// }
  /// ```
  ///
  /// - Parameter update: Sets the preview's values; it runs once, when the root is made.
  /// - Returns: A view whose hierarchy reads the preview root.
  @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
  nonisolated public func previewDependencies(
    _ update: @escaping @MainActor (inout DependencyValues) -> Void = { _ in }
  ) -> some View {
    modifier(PreviewDependenciesModifier(update: update))
  }
}

/// Sets `EnvironmentValues.dependencies` to a preview root kept in `@State`.
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
struct PreviewDependenciesModifier: ViewModifier {
  let update: @MainActor (inout DependencyValues) -> Void
  @State private var root = PreviewRoot()

  nonisolated init(update: @escaping @MainActor (inout DependencyValues) -> Void) {
    self.update = update
  }

  func body(content: Content) -> some View {
    content.environment(\.dependencies, root.values(update))
  }
}
