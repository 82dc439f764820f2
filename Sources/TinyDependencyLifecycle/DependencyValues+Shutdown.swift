public import TinyDependency

extension DependencyValues {
  /// Shuts down the values this container built that conform to ``DependencyShutdown``, each
  /// once, a value before every value it read.
  ///
  /// Values that don't depend on each other are shut down concurrently. One that throws does
  /// not stop the others: every failure is collected, with its key's name, and thrown together
  /// at the end.
  ///
  /// ```swift
  /// try await DependencyValues.current.prepare([PoolKey.self, UserServiceKey.self])
  /// // … serve …
  /// let report = try await DependencyValues.current.shutdown()
  /// print(report.order)  // ["UserServiceKey", "PoolKey"]
  /// ```
  ///
  /// What is shut down: the values built or prepared in this container, not values set on it
  /// (an override belongs to whoever made it) nor values it shares with the container it was
  /// derived from (that container's own shutdown handles them). Builds still running in this
  /// container are cancelled first and awaited (for up to
  /// ``TinyDependency/DependencyValues/defaultPreparationTimeout`` seconds); a value one of them
  /// makes anyway is shut down too, and no prepare starts here any more. A second call, or a
  /// concurrent one, waits for the first and returns its outcome.
  ///
  /// Afterwards, reading from this container a value that was shut down, or one that read it,
  /// stops with its name: it holds resources that are gone. So does reading it in a scope made
  /// from this container that read it before, or through an object made there, and reading
  /// such an async key in any scope made from this container; a synchronous key that a scope
  /// first reads afterwards is built anew there.
  ///
  /// - Returns: The keys whose values were shut down, in the order their shutdowns started.
  /// - Throws: A ``ShutdownError`` listing each value whose ``DependencyShutdown/shutdown()``
  ///   threw, after all of them ran.
  @discardableResult
  public func shutdown() async throws -> ShutdownReport {
    let values = self
    let task = Lifecycle.of(self).shutdownTask { builds in
      Task {
        for build in builds { build.cancel() }
        // A builder that ignores its cancellation is given up at the deadline.
        await withWatchdog(
          seconds: DependencyValues.defaultPreparationTimeout,
          onTimeout: { for build in builds { build.giveUp(.shutDown) } }
        ) {
          for build in builds { _ = try? await build.value() }
        }
        let report = await Shutdown.run(values.ownBuiltValues)
        values.retire(report.retired)
        if !report.failures.isEmpty { throw ShutdownError(report: report) }
        return report
      }
    }
    return try await task.value
  }
}

/// The keys whose values a shutdown shut down, and the ones that failed.
public struct ShutdownReport: Sendable, CustomStringConvertible {
  /// A value whose ``DependencyShutdown/shutdown()`` threw.
  public struct Failure: Sendable, CustomStringConvertible {
    /// The name of the value's key.
    public let key: String
    /// What its shutdown threw.
    public let error: any Error

    /// The key's name and the error: `PoolKey: connection reset`.
    public var description: String { "\(key): \(error)" }
  }

  /// The names of the keys whose values were shut down, in the order their shutdowns started.
  public let order: [String]
  /// The values whose shutdown threw, in the order they finished.
  public let failures: [Failure]
  /// The keys whose values can't be read any more: those shut down and those that read them.
  let retired: Set<ObjectIdentifier>

  /// The order, then any failures, one a line.
  public var description: String {
    (["shut down: " + order.joined(separator: ", ")] + failures.map { "failed: \($0)" })
      .joined(separator: "\n")
  }
}

/// Thrown by ``TinyDependency/DependencyValues/shutdown()`` when a value's shutdown threw; the others still ran.
public struct ShutdownError: Error, Sendable, CustomStringConvertible {
  /// Everything the shutdown did, including each failure.
  public let report: ShutdownReport

  /// The values whose shutdown threw, with their key names.
  public var failures: [ShutdownReport.Failure] { report.failures }

  /// One line per failure: `shutdown failed: PoolKey: connection reset`.
  public var description: String {
    failures.map { "shutdown failed: \($0)" }.joined(separator: "\n")
  }
}
