public import TinyDependency

/// Runs an operation in a scope of its own whose async keys are prepared first and whose own
/// values are shut down when it ends.
///
/// The scope starts from ``/TinyDependency/DependencyValues/current`` with `update`'s overrides, prepares
/// `keys` in it (see ``TinyDependency/DependencyValues/prepare(_:timeout:)``), runs `operation`, then calls
/// ``TinyDependency/DependencyValues/shutdown(gracePeriod:)`` on it, whether `operation` returned or threw. Values the
/// scope shares with the one around it (prepared there, and not overridden here) are left to
/// that scope. A key the scope prepares itself counts as changed in it, like an override: a
/// value built from it stays in the scope and goes with it.
///
/// ```swift
/// try await withPreparedDependencies([TenantDatabaseKey.self]) {
///   $0.tenant = Tenant(id: "acme")
/// } operation: {
///   try await runMigration()
/// }  // the tenant's database is shut down here
/// ```
///
/// Task-local values are **not** inherited by `Task.detached` or Dispatch: work escaping the
/// scope must not outlive it, since the scope's values are shut down when it ends.
///
/// - Parameters:
///   - keys: The async keys to prepare in the scope.
///   - timeout: How many seconds each build may take.
///   - isolation: The actor the operation runs on; the caller's by default.
///   - update: Sets the scope's values; it runs before anything is prepared.
///   - operation: The work to run in the scope.
/// - Returns: The value `operation` returns.
/// - Throws: A ``PreparationError`` if preparing failed (then `operation` does not run), what
///   `operation` throws, or else a ``ShutdownError`` if a value's shutdown threw.
public func withPreparedDependencies<R>(
  _ keys: [any AsyncDependencyKey.Type],
  timeout: Double = DependencyValues.defaultPreparationTimeout,
  isolation: isolated (any Actor)? = #isolation,
  _ update: (inout DependencyValues) async throws -> Void = { _ in },
  operation: () async throws -> R
) async throws -> R {
  let keys = keys.map(AsyncKeyType.init)
  let outer = DependencyValues.current
  var values = outer
  try await update(&values)
  // A storage of its own, so that what is prepared here is this scope's to shut down, and not
  // frozen yet by a read in `update`.
  // Set without the public setter: a test's scope must not count it as the user's override.
  values.setInternalMarker(OwnScopeKey.self, true)
  let scope = values
  let result: Result<R, any Error>
  do {
    try await scope.prepare(keys, timeout: timeout)
    result = .success(try await scope.withBound(isolation: isolation, operation))
  } catch {
    result = .failure(error)
  }
  do {
    try await scope.shutdown()
  } catch {
    if case .success = result { throw error }
  }
  return try result.get()
}

/// Set on a scope only so that it gets a storage of its own; nothing reads it.
enum OwnScopeKey: DependencyKey {
  static let defaultValue = false
}
