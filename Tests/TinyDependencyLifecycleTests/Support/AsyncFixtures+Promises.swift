import TinyDependency
import TinyDependencyLifecycle

// Async keys for the promises of the lifecycle that callers, owners and readers rely on.

/// Builds in `buildMilliseconds`, stopping early when cancelled.
enum MeasuredKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Resource { try await buildResource("Measured") }
}

/// The implementation behind ``InterfaceKey``.
enum ImplementationKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Resource { try await buildResource("Implementation") }
}

/// Hands out ``ImplementationKey``'s value: one object reached through two keys.
enum InterfaceKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Resource {
    try await DependencyValues.current.prepared(ImplementationKey.self)
  }
}

/// A synchronous key with a value that needs a shutdown, set by the user in the tests.
enum HandedInKey: DependencyKey {
  static var defaultValue: Resource { Resource("Default", settings: AsyncSettings()) }
}
