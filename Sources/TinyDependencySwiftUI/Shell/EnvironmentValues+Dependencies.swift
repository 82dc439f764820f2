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

  #if canImport(SwiftUI) || TINY_DEPENDENCY_SWIFTUI_STAND_IN
    /// The container the nearest modifier set; nil above every modifier. The core's key, which
    /// a `@Dependency` stored in a view reads before each body.
    private var viewValues: DependencyValues? {
      get { tinyDependencyViewValues }
      set { tinyDependencyViewValues = newValue }
    }
  #else
    /// The container the nearest modifier set; nil above every modifier. (Where the core is
    /// built without SwiftUI, as on Linux against the stand-in, a key of this product's own.)
    private var viewValues: DependencyValues? {
      get { self[DependenciesEnvironmentKey.self] }
      set { self[DependenciesEnvironmentKey.self] = newValue }
    }
  #endif
}

#if !(canImport(SwiftUI) || TINY_DEPENDENCY_SWIFTUI_STAND_IN)
  /// The environment key behind `EnvironmentValues.dependencies`: nil above every
  /// modifier.
  private enum DependenciesEnvironmentKey: EnvironmentKey {
    static var defaultValue: DependencyValues? { nil }
  }
#endif
