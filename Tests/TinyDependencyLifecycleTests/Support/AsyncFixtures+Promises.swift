import TinyDependency
import TinyDependencyLifecycle

// Async keys for the promises of the lifecycle that callers, owners and readers rely on.

/// Opened by the test that uses ``GatedKey``.
let gate = QueueLocked(false)

/// Builds once ``gate`` is open, stopping early when cancelled.
enum GatedKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Resource {
    DependencyValues.current.asyncSettings.log.append("waiting Gated")
    while !gate.withLock({ $0 }) { try await Task.sleep(nanoseconds: 5_000_000) }
    return try await buildResource("Gated")
  }
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

/// Prepares ``SlowKey`` with a short timeout of its own from inside its build, and returns the
/// reason that inner prepare failed with, or "built" if it did not fail.
enum ImpatientBuilderKey: AsyncDependencyKey {
  static func makeDefault() async throws -> String {
    do {
      try await DependencyValues.current.prepare([SlowKey.self], timeout: 0.5)
      return "built"
    } catch let error as PreparationError {
      return "\(error.path): \(error.reason)"
    }
  }
}

/// Starts a task that prepares ``AwaitsStarterKey`` and does not wait for it, then ends.
enum TaskStarterKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Int {
    Task { _ = try? await DependencyValues.current.prepared(AwaitsStarterKey.self) }
    try await Task.sleep(nanoseconds: 200_000_000)
    return 1
  }
}

/// Awaits ``TaskStarterKey``, whose build started this one in a task it does not wait for.
enum AwaitsStarterKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Int {
    try await DependencyValues.current.prepared(TaskStarterKey.self) + 1
  }
}

/// Awaits ``ScopedLoopBKey`` in a scope of its own, which changes ``PrefixKey``.
enum ScopedLoopAKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Int {
    let depth = DependencyValues.current[PrefixKey.self].count
    return try await withDependencies {
      $0[PrefixKey.self] += "+"
    } operation: {
      try await DependencyValues.current.prepared(ScopedLoopBKey.self) + depth
    }
  }
}

/// Awaits ``ScopedLoopAKey``, which awaits this key in a scope of its own.
enum ScopedLoopBKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Int {
    try await DependencyValues.current.prepared(ScopedLoopAKey.self)
  }
}
