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
  /// derived from (that container's own shutdown handles them). No prepare starts here any
  /// more. Builds still running in this container, including one a prepare gave up on when its
  /// timeout passed, are cancelled first and awaited for up to `gracePeriod` seconds; a value
  /// one of them makes in that time is shut down too. A build still running when the grace
  /// period ends (its builder ignores cancellation) is abandoned: the other values are shut
  /// down without it, the report names it in ``ShutdownReport/abandoned``, and the value it
  /// makes later is shut down when it arrives, once, and never kept. A second call, or a
  /// concurrent one, waits for the first and returns its outcome.
  ///
  /// Afterwards, reading from this container a value that was shut down, or one that read it,
  /// stops with its name: it holds resources that are gone. So does reading it in a scope made
  /// from this container that read it before, or through an object made there, and reading
  /// such an async key in any scope made from this container; a synchronous key that a scope
  /// first reads afterwards is built anew there.
  ///
  /// - Parameter gracePeriod: How many seconds to wait for builds still running. By default,
  ///   the longest timeout of the prepares that started them: no longer than a prepare waited.
  /// - Returns: The keys whose values were shut down, in the order their shutdowns started, and
  ///   the builds abandoned.
  /// - Throws: A ``ShutdownError`` listing each value whose ``DependencyShutdown/shutdown()``
  ///   threw, after all of them ran.
  @discardableResult
  public func shutdown(gracePeriod: Double? = nil) async throws -> ShutdownReport {
    let values = self
    let lifecycle = Lifecycle.of(self)
    let task = lifecycle.shutdownTask { builds in
      Task {
        for build in builds { build.cancel() }
        // A builder that ignores its cancellation is given up when the grace period ends; the
        // value it makes later is shut down by its build (`runBuild`), since it settled.
        let abandoned = Locked<[PendingBuild]>([])
        await withWatchdog(
          seconds: gracePeriod ?? builds.map(\.timeout).max() ?? 0,
          onTimeout: {
            let given = builds.filter { $0.giveUp(.shutDown) }
            abandoned.withLock { $0 = given }
          }
        ) {
          for build in builds { _ = try? await build.value() }
        }
        let built = lifecycle.claim(values.ownBuiltValues)
        // One given up as it stored its value is shut down below, not abandoned; so is one
        // whose build shut it down as it arrived, in the grace period, before these.
        let stored = Set(built.map(\.key.id))
        let onArrival = lifecycle.shutDownOnArrival
        var report = await Shutdown.run(built)
        report.order = onArrival + report.order
        report.abandoned = abandoned.withLock { $0 }.map(\.key).filter { !stored.contains($0.id) }
          .map(\.name).filter { !onArrival.contains($0) }.sorted()
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
  public internal(set) var order: [String]
  /// The values whose shutdown threw, in the order they finished.
  public let failures: [Failure]
  /// The keys whose builds were still running when the grace period ended, by name: each value
  /// is shut down when its build returns it.
  public internal(set) var abandoned: [String] = []
  /// The keys whose values can't be read any more: those shut down and those that read them.
  let retired: Set<ObjectIdentifier>

  /// The order, then any failures and abandoned builds, one a line.
  public var description: String {
    (["shut down: " + order.joined(separator: ", ")] + failures.map { "failed: \($0)" }
      + abandonedLines).joined(separator: "\n")
  }

  /// A line for each abandoned build.
  var abandonedLines: [String] {
    abandoned.map {
      "abandoned: \($0) (still building when the grace period ended; its value is shut down "
        + "when it arrives)"
    }
  }
}

/// Thrown by ``TinyDependency/DependencyValues/shutdown(gracePeriod:)`` when a value's shutdown
/// threw; the others still ran.
public struct ShutdownError: Error, Sendable, CustomStringConvertible {
  /// Everything the shutdown did, including each failure.
  public let report: ShutdownReport

  /// The values whose shutdown threw, with their key names.
  public var failures: [ShutdownReport.Failure] { report.failures }

  /// One line per failure, `shutdown failed: PoolKey: connection reset`, then one per
  /// abandoned build.
  public var description: String {
    (failures.map { "shutdown failed: \($0)" } + report.abandonedLines).joined(separator: "\n")
  }
}
