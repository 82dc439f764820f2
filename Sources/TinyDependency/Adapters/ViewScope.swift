// A `@Dependency` stored in a SwiftUI view reads the container of the nearest `.dependencies`
// modifier (TinyDependencySwiftUI) as the scope it was made in. Where SwiftUI exists the wrapper
// is a `DynamicProperty` (`ViewProperty`, Platform/ViewEnvironment.swift): SwiftUI installs its
// environment field and calls `update()` before each body, which hands the modifier's container
// to the wrapper. A read is then the read of any wrapper made in a scope: nothing is asked of
// the environment there.

extension Dependency: ViewProperty {
  /// Called by SwiftUI before each body of a view that stores the wrapper: from then on the
  /// wrapper reads the values of the nearest `.dependencies` or `.dependency(_:_:)` modifier
  /// above the view (TinyDependencySwiftUI), as if it had been made in them. Where SwiftUI does
  /// not exist nothing calls it, and it does nothing.
  public mutating func update() {
    adoptViewScope(viewEnvironment.values)
  }

  /// Makes the wrapper read `values` as the scope it was made in, as a view's wrapper reads its
  /// nearest modifier's container; nil (no modifier above the view) keeps the scope it has.
  ///
  /// Called before each body, so it is cheap when nothing changed: the same container leaves
  /// the wrapper as it is.
  package mutating func adoptViewScope(_ values: DependencyValues?) {
    guard let values, scope?.serial != values.storage.serial else { return }
    scope = WrapperScope.made(in: values)
  }
}
