public import TinyDependency

extension DependencyValues {
  /// Starts work that the caller does not wait for, such as sending analytics: a new `Task`
  /// live, which inherits the current dependencies.
  ///
  /// ```swift
  /// @Dependency(\.fireAndForget) var fireAndForget
  ///
  /// await fireAndForget {
  ///   try await analytics.track("signed in")
  /// }
  /// ```
  ///
  /// In tests the work finishes before the call returns, so a test can check what it did; an
  /// error it throws is recorded as an issue. Previews use the live value.
  public var fireAndForget: FireAndForget {
    get { self[FireAndForgetKey.self] }
    set { self[FireAndForgetKey.self] = newValue }
  }
}

/// Runs work without making its caller wait for it: `\.fireAndForget`.
public struct FireAndForget: Sendable {
  /// Runs `work` at `priority`.
  public let operation:
    @Sendable (_ priority: TaskPriority?, _ work: @escaping @Sendable () async throws -> Void)
      async -> Void

  /// Creates a fire-and-forget from a function that runs work.
  ///
  /// - Parameter operation: Runs the work it is given, at the priority it is given.
  public init(
    _ operation:
      @escaping @Sendable (TaskPriority?, @escaping @Sendable () async throws -> Void) async -> Void
  ) {
    self.operation = operation
  }

  /// Runs `operation` without waiting for it (live), or waits for it (tests).
  ///
  /// - Parameters:
  ///   - name: A name for the work, kept for source compatibility; not used.
  ///   - priority: The priority of the task that runs it.
  ///   - operation: The work; an error it throws is dropped live and reported in tests.
  public func callAsFunction(
    name: String? = nil,
    priority: TaskPriority? = nil,
    _ operation: @escaping @Sendable () async throws -> Void
  ) async {
    await self.operation(priority, operation)
  }
}

/// The key of `\.fireAndForget`.
enum FireAndForgetKey: DependencyKey {
  static let defaultValue = FireAndForget { priority, work in
    Task(priority: priority) { try await work() }
  }
  static let testValue = FireAndForget { priority, work in
    await Task(priority: priority) {
      await withErrorReporting { try await work() }
    }
    .value
  }
  static var previewValue: FireAndForget { defaultValue }
}
