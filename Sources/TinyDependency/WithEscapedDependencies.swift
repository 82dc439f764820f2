/// Captures the current dependencies so that work that escapes the task can use them.
///
/// Task-local values are **not** inherited by `Task.detached`, Dispatch queues, threads or
/// callbacks from other libraries. Capture the current scope with this function and re-enter
/// it there with ``DependencyValues/Continuation/yield(_:)``:
///
/// ```swift
/// withEscapedDependencies { continuation in
///   queue.async {
///     continuation.yield {
///       logger.log("still sees the overrides of the scope that scheduled it")
///     }
///   }
/// }
/// ```
///
/// - Parameter operation: Receives the continuation; may store or send it anywhere.
/// - Returns: The value `operation` returns.
/// - Throws: What `operation` throws.
public func withEscapedDependencies<R>(
  _ operation: (DependencyValues.Continuation) throws -> R
) rethrows -> R {
  try operation(DependencyValues.Continuation(values: DependencyValues.current))
}

/// Captures the current dependencies for asynchronous work that escapes the task.
///
/// - Parameters:
///   - isolation: The actor the operation runs on; the caller's by default.
///   - operation: Receives the continuation; may store or send it anywhere.
/// - Returns: The value `operation` returns.
/// - Throws: What `operation` throws.
public func withEscapedDependencies<R>(
  isolation: isolated (any Actor)? = #isolation,
  _ operation: (DependencyValues.Continuation) async throws -> R
) async rethrows -> R {
  try await operation(DependencyValues.Continuation(values: DependencyValues.current))
}

extension DependencyValues {
  /// A captured scope that escaping work re-enters with ``yield(_:)``.
  ///
  /// It may be used any number of times, from any thread, also after the scope that created
  /// it has ended; it keeps that scope's values (and what they built) alive while it exists.
  public struct Continuation: Sendable {
    private enum Scope {
      /// The container, kept alive.
      case container(DependencyValues)
      /// A scope captured while a value was built: the value may keep the continuation, so it
      /// does not keep the container alive.
      case captured(CapturedScope)
    }

    private let scope: Scope
    /// The build that was running, so that reads through the continuation join its chain.
    private let binding: BuildBinding?

    init(values: DependencyValues) {
      // A binding of its own: holding the build's would mark its value as keeping its scope
      // (`BuildBinding`) even where the capture below marks nothing (the process root).
      binding = values.frame.map(BuildBinding.init)
      if let capture = values.captureForBuild(.escapedScope) {
        scope = .captured(capture)
      } else {
        values.storage.freeze()
        scope = .container(DependencyValues(storage: values.storage))
      }
    }

    /// The container the continuation re-enters.
    var values: DependencyValues {
      var values: DependencyValues
      switch scope {
      case .container(let container): values = container
      case .captured(let capture): values = DependencyValues(storage: capture.storage)
      }
      values.binding = binding
      return values
    }

    /// Runs a synchronous operation inside the captured scope.
    ///
    /// - Parameter operation: The work to run with the captured values current.
    /// - Returns: The value `operation` returns.
    /// - Throws: What `operation` throws.
    public func yield<R>(_ operation: () throws -> R) rethrows -> R {
      try values.bind(operation)
    }

    /// Runs an asynchronous operation inside the captured scope.
    ///
    /// - Parameters:
    ///   - isolation: The actor the operation runs on; the caller's by default.
    ///   - operation: The work to run with the captured values current.
    /// - Returns: The value `operation` returns.
    /// - Throws: What `operation` throws.
    public func yield<R>(
      isolation: isolated (any Actor)? = #isolation,
      _ operation: () async throws -> R
    ) async rethrows -> R {
      try await values.bind(isolation: isolation, operation)
    }
  }
}
