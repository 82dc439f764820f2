public import TinyDependency

#if canImport(SwiftUI)
  public import SwiftUI
#else
  public import SwiftUIStandIn
#endif

@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
extension Scene {
  /// Overrides dependencies for this scene's views.
  ///
  /// As on a view, the child container is derived once and kept across the scene's redraws; it
  /// is derived again only when the container above is another one, or when `id` changes.
  ///
  /// ```swift
  /// WindowGroup {
  ///   QuoteScreen()
  /// }
  /// .dependencies {
  ///   $0.quotes = QuoteClient { "Make it work, make it right, make it fast." }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - id: A value whose change derives the container again; by default it never changes.
  ///   - update: Sets the values to use; it runs when the container is derived.
  /// - Returns: A scene whose views see the updated values.
  @MainActor @preconcurrency
  public func dependencies(
    id: some Hashable & Sendable = 0,
    _ update: @escaping @MainActor (inout DependencyValues) -> Void
  ) -> some Scene {
    DependenciesScene(content: self, inputs: ModifierInputs(id: id), update: update)
  }

  /// Overrides one dependency for this scene's views.
  ///
  /// The container is derived again when `value` changes (compared with `==`).
  ///
  /// - Parameters:
  ///   - keyPath: The dependency's registered property.
  ///   - value: The value to use.
  /// - Returns: A scene whose views see the value.
  @MainActor @preconcurrency
  public func dependency<Value: Sendable & Equatable>(
    _ keyPath: any WritableKeyPath<DependencyValues, Value> & Sendable,
    _ value: Value
  ) -> some Scene {
    DependenciesScene(content: self, inputs: ModifierInputs(keyPath: keyPath, value: value)) {
      $0[keyPath: keyPath] = value
    }
  }
}

/// A scene whose views see a container derived from the one above, kept in `@State`.
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
struct DependenciesScene<Content: Scene>: Scene {
  let content: Content
  let inputs: ModifierInputs
  let update: @MainActor (inout DependencyValues) -> Void
  @Environment(\.dependencies) private var parent
  @State private var container = ModifierContainer()

  init(
    content: Content,
    inputs: ModifierInputs,
    update: @escaping @MainActor (inout DependencyValues) -> Void
  ) {
    self.content = content
    self.inputs = inputs
    self.update = update
  }

  var body: some Scene {
    content.environment(
      \.dependencies,
      container.values(parent: parent, inputs: inputs, update: update)
    )
  }
}
