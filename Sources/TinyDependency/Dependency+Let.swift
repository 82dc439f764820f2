extension Dependency {
  /// Reads the dependency's value in the current scope, for a `Dependency` held in a `let`.
  ///
  /// `@Dependency` needs a `var`, which a `Sendable` class cannot have. A `Dependency` is itself
  /// `Sendable`, so such a class (or an actor) holds one in a `let` and calls it:
  ///
  /// ```swift
  /// final class Uploader: Sendable {
  ///   let logger = Dependency(\.logger)
  ///
  ///   func upload(_ name: String) {
  ///     logger().log("uploading \(name)")
  ///   }
  /// }
  /// ```
  ///
  /// It is the same value the property wrapper stores, with the same capture rules: it keeps the
  /// scope it was made in, and an override in a newer scope wins. `logger()` and
  /// `logger.wrappedValue` read the same.
  ///
  /// - Returns: The value ``wrappedValue`` returns.
  @inlinable
  public func callAsFunction() -> Value {
    wrappedValue
  }
}
