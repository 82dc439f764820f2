public import TinyDependency

#if canImport(SwiftUI)
  public import SwiftUI
#else
  public import SwiftUIStandIn
#endif

extension EnvironmentValues {
  /// The dependency container of this part of the view hierarchy.
  ///
  /// `.dependencies { … }` and `.dependency(_:_:)` set it for the views below them; where no
  /// modifier set it, it is the container current where the hierarchy began (the process root,
  /// with what `prepareDependencies` put there).
  ///
  /// ```swift
  /// struct QuoteSource: View {
  ///   @Environment(\.dependencies) private var dependencies
  ///
  ///   var body: some View {
  ///     Text(dependencies.context == .preview ? "preview" : "live")
  ///   }
  /// }
  /// ```
  public var dependencies: DependencyValues {
    get { viewValues ?? DependencyValues.current }
    set { viewValues = newValue }
  }

  /// The container the nearest modifier set; nil above every modifier.
  private var viewValues: DependencyValues? {
    get { self[DependenciesEnvironmentKey.self] }
    set { self[DependenciesEnvironmentKey.self] = newValue }
  }
}

/// The environment key behind `EnvironmentValues.dependencies`: nil above every
/// modifier.
private enum DependenciesEnvironmentKey: EnvironmentKey {
  static var defaultValue: DependencyValues? { nil }
}
