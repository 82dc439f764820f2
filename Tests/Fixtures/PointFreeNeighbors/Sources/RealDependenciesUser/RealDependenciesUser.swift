import Dependencies

/// A key of the other `Dependencies` module, in the same graph as TinyDependency.
public enum RealKey: DependencyKey {
  /// Its live value.
  public static let liveValue = 1
}
