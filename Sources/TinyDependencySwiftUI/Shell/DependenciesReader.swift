public import TinyDependency

#if canImport(SwiftUI)
  public import SwiftUI
#else
  public import SwiftUIStandIn
#endif

/// A view that makes its content with the nearest modifier's container current.
///
/// Objects made in `content` keep that container, as objects made inside `withDependencies`
/// do: a model made here reads the values of the `.dependencies` modifier above.
///
/// ```swift
/// DependenciesReader { _ in
///   QuoteView(model: QuoteModel())
/// }
/// .dependencies {
///   $0.quotes = QuoteClient { "Make it work, make it right, make it fast." }
/// }
/// ```
///
/// `content` runs on each redraw of this view, like any view's body: hold a model in `@State`
/// in the view it is given to, so that SwiftUI keeps the first one.
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
public struct DependenciesReader<Content: View>: View {
  private let content: @MainActor (DependencyValues) -> Content
  @Environment(\.dependencies) private var dependencies

  /// Creates a view that makes `content` with the nearest modifier's container current.
  ///
  /// - Parameter content: Makes the content; it receives the container it runs in.
  nonisolated public init(@ViewBuilder content: @escaping @MainActor (DependencyValues) -> Content)
  {
    self.content = content
  }

  /// The content, made with the container current.
  public var body: some View {
    withDependencies(dependencies) { content(dependencies) }
  }
}
