public import TinyDependency

#if canImport(SwiftUI)
  public import SwiftUI
#else
  public import SwiftUIStandIn
#endif

extension View {
  /// Overrides dependencies for this view and the views below it.
  ///
  /// The modifier derives a child of the container above it once and keeps it across redraws,
  /// so the services built in it are built once. It derives again only when the container above
  /// is another one, or when `id` changes.
  ///
  /// ```swift
  /// QuoteScreen()
  ///   .dependencies {
  ///     $0.quotes = QuoteClient { "Make it work, make it right, make it fast." }
  ///   }
  /// ```
  ///
  /// - Parameters:
  ///   - id: A value whose change derives the container again; by default it never changes.
  ///   - update: Sets the values to use; it runs when the container is derived.
  /// - Returns: A view that sees the updated values.
  @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
  nonisolated public func dependencies(
    id: some Hashable & Sendable = 0,
    _ update: @escaping @MainActor (inout DependencyValues) -> Void
  ) -> some View {
    modifier(DependenciesModifier(inputs: ModifierInputs(id: id), update: update))
  }

  /// Overrides one dependency for this view and the views below it.
  ///
  /// The container is derived again when `value` changes (compared with `==`).
  ///
  /// ```swift
  /// QuoteScreen()
  ///   .dependency(\.quotes, QuoteClient { "Silence." })
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: The dependency's registered property.
  ///   - value: The value to use.
  /// - Returns: A view that sees the value.
  @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
  nonisolated public func dependency<Value: Sendable & Equatable>(
    _ keyPath: any WritableKeyPath<DependencyValues, Value> & Sendable,
    _ value: Value
  ) -> some View {
    modifier(
      DependenciesModifier(inputs: ModifierInputs(keyPath: keyPath, value: value)) {
        $0[keyPath: keyPath] = value
      }
    )
  }

  /// Overrides one dependency for this view and the views below it.
  ///
  /// A value that is not `Equatable` is compared by identity if it is an object, and otherwise
  /// not at all: pass an `id` that changes with it to derive the container again.
  ///
  /// - Parameters:
  ///   - keyPath: The dependency's registered property.
  ///   - value: The value to use.
  ///   - id: A value whose change derives the container again; by default it never changes.
  /// - Returns: A view that sees the value.
  @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
  @_disfavoredOverload
  nonisolated public func dependency<Value: Sendable>(
    _ keyPath: any WritableKeyPath<DependencyValues, Value> & Sendable,
    _ value: Value,
    id: some Hashable & Sendable = 0
  ) -> some View {
    modifier(
      DependenciesModifier(
        inputs: ModifierInputs(keyPath: keyPath, value: value).adding(id: id)
      ) {
        $0[keyPath: keyPath] = value
      }
    )
  }
}

/// Sets `EnvironmentValues.dependencies` to a container derived from the one above, kept in
/// `@State` across redraws.
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
struct DependenciesModifier: ViewModifier {
  let inputs: ModifierInputs
  let update: @MainActor (inout DependencyValues) -> Void
  @Environment(\.dependencies) private var parent
  @State private var container = ModifierContainer()

  nonisolated init(
    inputs: ModifierInputs,
    update: @escaping @MainActor (inout DependencyValues) -> Void
  ) {
    self.inputs = inputs
    self.update = update
  }

  func body(content: Content) -> some View {
    content.environment(
      \.dependencies,
      container.values(parent: parent, inputs: inputs, update: update)
    )
  }
}
