// The one place the core meets SwiftUI: the environment field a `@Dependency` has where SwiftUI
// exists, through which a wrapper stored in a view finds the container of the nearest
// `.dependencies` modifier (TinyDependencySwiftUI; Adapters/ViewScope.swift says what it does
// with it). Elsewhere the field is an empty struct: Linux and servers compile the read they had.
// `TINY_DEPENDENCY_SWIFTUI_STAND_IN` compiles the SwiftUI variant against the stand-in module
// (Tests/SwiftUIStandIn) for the Apple floors' type check (scripts/typecheck-apple-floor.sh).
#if canImport(SwiftUI)
  public import SwiftUI
#elseif TINY_DEPENDENCY_SWIFTUI_STAND_IN
  public import SwiftUIStandIn
#endif

#if canImport(SwiftUI) || TINY_DEPENDENCY_SWIFTUI_STAND_IN
  /// SwiftUI's protocol of the properties it updates before each body.
  typealias ViewProperty = DynamicProperty

  /// The wrapper's environment field: SwiftUI's own, installed when the wrapper is stored in a
  /// view, and read only in `update()`.
  @usableFromInline
  typealias ViewEnvironment = Environment<DependencyValues?>

  extension Environment where Value == DependencyValues? {
    /// The field a wrapper is made with: the container the nearest modifier set.
    static func dependencies() -> Self { Self(\.tinyDependencyViewValues) }

    /// The container the nearest `.dependencies` modifier set; nil above every modifier.
    var values: DependencyValues? { wrappedValue }
  }

  /// The key behind `EnvironmentValues.dependencies` (TinyDependencySwiftUI): nil above every
  /// modifier.
  private enum ViewValuesKey: EnvironmentKey {
    static var defaultValue: DependencyValues? { nil }
  }

  extension EnvironmentValues {
    /// The container the nearest `.dependencies` modifier set; nil above every modifier.
    package var tinyDependencyViewValues: DependencyValues? {
      get { self[ViewValuesKey.self] }
      set { self[ViewValuesKey.self] = newValue }
    }
  }
#else
  /// Where SwiftUI does not exist, nothing updates a property before a body.
  protocol ViewProperty {}

  /// The wrapper's environment field where there is no SwiftUI: empty, and never holds a
  /// container.
  @usableFromInline
  struct ViewEnvironment: Sendable {
    /// The field a wrapper is made with.
    @inlinable
    static func dependencies() -> Self { Self() }

    @inlinable
    init() {}

    /// Nothing: no modifier sets a container here.
    var values: DependencyValues? { nil }
  }
#endif
