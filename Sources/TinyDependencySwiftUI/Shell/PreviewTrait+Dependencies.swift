public import TinyDependency

#if canImport(SwiftUI)
  public import SwiftUI
#else
  public import SwiftUIStandIn
#endif

@available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension PreviewTrait where T == Preview.ViewTraits {
  /// Gives the preview a fresh root container with these values, its own and no other preview's.
  ///
  /// ```swift
  /// #Preview(traits: .dependencies { $0.quotes = QuoteClient { "a quote for this preview" } }) {
  ///   QuoteScreen()
  /// }
  /// ```
  ///
  /// Nothing is shared through the preview system's shared context: each preview, and each run
  /// of its body, makes its own root (see `View.previewDependencies(_:)`).
  ///
  /// - Parameter update: Sets the preview's values; it runs once per preview root.
  /// - Returns: A trait that applies the values to the preview.
  @MainActor @preconcurrency
  public static func dependencies(
    _ update: @escaping @MainActor (inout DependencyValues) -> Void = { _ in }
  ) -> PreviewTrait<T> {
    .modifier(DependenciesPreviewModifier(update: update))
  }
}

/// The preview modifier behind the `.dependencies` trait: no shared context, a root per preview.
@available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
struct DependenciesPreviewModifier: PreviewModifier {
  let update: @MainActor (inout DependencyValues) -> Void

  func body(content: Content, context: Void) -> some View {
    content.previewDependencies(update)
  }
}
