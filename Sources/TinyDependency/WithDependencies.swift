/// Overrides dependencies for the duration of a synchronous operation.
///
/// `update` receives a copy of ``DependencyValues/current``; the values it sets are current
/// while `operation` runs, then the previous ones are restored. Nested calls see the outer
/// overrides unless they override the same keys.
///
/// ```swift
/// withDependencies {
///   $0.logger = SilentLogger()
/// } operation: {
///   TodoStore().add("Buy milk")
/// }
/// ```
///
/// - Parameters:
///   - update: Sets the values to use; it runs before `operation`, outside the new scope.
///   - operation: The work to run with the updated values.
/// - Returns: The value `operation` returns.
/// - Throws: What `update` or `operation` throws.
public func withDependencies<R>(
  _ update: (inout DependencyValues) throws -> Void,
  operation: () throws -> R
) rethrows -> R {
  var values = DependencyValues.current
  if values.context == .test {
    // A key-path write reads the property first: the built-ins' placeholders stay quiet.
    try IssueReporter.applyingOverrides.withValue(true) { try update(&values) }
  } else {
    try update(&values)
  }
  return try values.bind(operation)
}

/// Overrides dependencies for the duration of an asynchronous operation.
///
/// Child tasks that `operation` creates (`Task {}`, task groups, `async let`) inherit the
/// overrides. Task-local values are **not** inherited by `Task.detached` or Dispatch: use
/// ``withEscapedDependencies(_:)`` to carry them there.
///
/// ```swift
/// await withDependencies {
///   $0.apiClient = .mock
/// } operation: {
///   await model.refresh()
/// }
/// ```
///
/// - Parameters:
///   - isolation: The actor the operation runs on; the caller's by default.
///   - update: Sets the values to use; it runs before `operation`, outside the new scope.
///   - operation: The work to run with the updated values.
/// - Returns: The value `operation` returns.
/// - Throws: What `update` or `operation` throws.
public func withDependencies<R>(
  isolation: isolated (any Actor)? = #isolation,
  _ update: (inout DependencyValues) async throws -> Void,
  operation: () async throws -> R
) async rethrows -> R {
  var values = DependencyValues.current
  if values.context == .test {
    // A key-path write reads the property first: the built-ins' placeholders stay quiet.
    try await IssueReporter.applyingOverrides.withValue(
      true,
      operation: { try await update(&values) },
      isolation: isolation
    )
  } else {
    try await update(&values)
  }
  return try await values.bind(isolation: isolation, operation)
}

/// Runs a synchronous operation with an explicit container bound as the current one.
///
/// ```swift
/// var request = DependencyValues(context: .default)
/// request.requestID = RequestID("r-42")
/// let response = withDependencies(request) { handle(incoming) }
/// ```
///
/// - Parameters:
///   - values: The container to make ``DependencyValues/current``.
///   - operation: The work to run with `values` current.
/// - Returns: The value `operation` returns.
/// - Throws: What `operation` throws.
public func withDependencies<R>(
  _ values: DependencyValues,
  operation: () throws -> R
) rethrows -> R {
  try values.bind(operation)
}

/// Runs an asynchronous operation with an explicit container bound as the current one.
///
/// Child tasks inherit the binding; `Task.detached` and Dispatch do **not**.
///
/// - Parameters:
///   - values: The container to make ``DependencyValues/current``.
///   - isolation: The actor the operation runs on; the caller's by default.
///   - operation: The work to run with `values` current.
/// - Returns: The value `operation` returns.
/// - Throws: What `operation` throws.
public func withDependencies<R>(
  _ values: DependencyValues,
  isolation: isolated (any Actor)? = #isolation,
  operation: () async throws -> R
) async rethrows -> R {
  try await values.bind(isolation: isolation, operation)
}
