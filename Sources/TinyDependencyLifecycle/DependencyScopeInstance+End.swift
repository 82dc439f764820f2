import Dispatch
public import TinyDependency

extension DependencyScopeInstance {
  /// Ends the instance: first the instances begun inside it that are still open, latest
  /// first, then its own values, shut down as ``TinyDependency/DependencyValues/shutdown(gracePeriod:)``
  /// does (a value before the values it read, each once, failures collected).
  ///
  /// Values the instance shares with the scope around it and values set on it are not shut
  /// down. Afterwards, `run` and reads of the instance's values stop, naming the key. A second
  /// call, or a concurrent one, returns the first one's outcome.
  ///
  /// - Parameter isolation: The actor the call returns on; the caller's by default. An instance
  ///   with nothing to shut down ends without leaving it.
  /// - Returns: The keys whose values were shut down, the inner instances' first.
  /// - Throws: A ``ShutdownError`` listing each value whose shutdown threw, after all ran.
  @discardableResult
  public func end(isolation: isolated (any Actor)? = #isolation) async throws -> ShutdownReport {
    // An instance with nothing to shut down ends here, without another async call.
    var inProgress = false
    if let report = values.beginEndingInstance(inProgress: &inProgress)?.report { return report }
    return try await values.endInstance(isolation: isolation)
  }
}

/// Begins an instance of `scope` with `update`'s overrides, runs `operation` in it, and ends
/// it, whether `operation` returned or threw.
///
/// ```swift
/// try await withDependencyScope(Session.self) {
///   $0.userName = "ada"
/// } operation: {
///   try await checkOut()
/// }  // the session's own values are shut down here
/// ```
///
/// - Parameters:
///   - scope: The scope to begin an instance of.
///   - isolation: The actor the operation runs on; the caller's by default.
///   - update: Sets the instance's own values.
///   - operation: The work to run in the instance.
/// - Returns: What `operation` returns.
/// - Throws: What `operation` throws, or else a ``ShutdownError`` if a value's shutdown threw.
public func withDependencyScope<S: DependencyScope, R>(
  _ scope: S.Type,
  isolation: isolated (any Actor)? = #isolation,
  _ update: (inout DependencyValues) throws -> Void = { _ in },
  operation: () async throws -> R
) async throws -> R {
  let instance = try DependencyValues.current.beginScope(S.self, update)
  let result: Result<R, any Error>
  do {
    result = .success(try await instance.run(isolation: isolation, operation))
  } catch {
    result = .failure(error)
  }
  do {
    try await instance.end()
  } catch {
    if case .success = result { throw error }
  }
  return try result.get()
}

/// The first `end()` of an instance, which later ones await: its task, or, for an instance
/// with nothing to shut down, its report. A value built for the instance after it ended is
/// shut down here as it arrives, unless the end took it on.
final class ScopeEnding: InstanceEnding {
  let task: Task<ShutdownReport, any Error>?
  let report: ShutdownReport?

  init(task: Task<ShutdownReport, any Error>?, report: ShutdownReport? = nil) {
    (self.task, self.report) = (task, report)
  }

  /// The end of an instance that had nothing to shut down: one for all of them.
  static let nothingToShutDown = ScopeEnding(
    task: nil,
    report: ShutdownReport(order: [], failures: [], retired: [])
  )

  /// Shuts `value` down, once, and returns when it is down (its read stops next, which ends a
  /// process in most cases: waiting here lets the shutdown run first). The wait is bounded.
  func arrivedAfterEnd(_ value: BuiltValue, owner: DependencyValues) {
    guard let target = value.anyValue as? any DependencyShutdown,
      !Lifecycle.of(owner).claim([value]).isEmpty
    else { return }
    let done = DispatchSemaphore(value: 0)
    Task {
      try? await target.shutdown()
      done.signal()
    }
    _ = done.wait(timeout: .now() + .seconds(10))
  }
}

extension DependencyValues {
  /// Ends this container's scope instance once (a plain container is shut down).
  func endInstance(isolation: isolated (any Actor)? = #isolation) async throws -> ShutdownReport {
    while true {
      var inProgress = false
      if let ending = beginEndingInstance(inProgress: &inProgress) {
        if let report = ending.report { return report }
        return try await ending.task!.value
      }
      if !inProgress { return try await shutdown() }
      // A concurrent first `end()` is still making its outcome: a few instructions away.
      await Task.yield()
    }
  }

  /// Ends this container's scope instance once, and returns its outcome: at once for an
  /// instance with nothing to shut down, else the task that shuts it down. Nil when the
  /// container is no scope instance, or, with `inProgress` set, while a concurrent first call
  /// still makes its outcome.
  func beginEndingInstance(inProgress: inout Bool) -> ScopeEnding? {
    let values = self
    return endScopeInstance(inProgress: &inProgress) { children, below in
      // Nothing prepared, nothing to shut down, nothing inside: retire its values and be done.
      let own = values.ownBuiltValues
      // No concatenation, no flattening: each costs generic metadata lookups on every end.
      func needsShutdown(_ built: [BuiltValue]) -> Bool {
        built.contains { $0.anyValue is any DependencyShutdown }
      }
      if children.isEmpty, Lifecycle.existing(values) == nil, !needsShutdown(own),
        !below.contains(where: needsShutdown)
      {
        if !own.isEmpty { values.retire(Set(own.map(\.key.id))) }
        for group in below { for value in group { value.endLifetime() } }
        return ScopeEnding.nothingToShutDown
      }
      return ScopeEnding(task: Task { try await values.end(children, below: below) })
    }
  }

  /// Ends `children`, then shuts down the values of this instance's scope built below it
  /// (`below`, a container's values each, deepest first), then its own values, and retires
  /// every one of them.
  private func end(
    _ children: [DependencyValues],
    below: [[BuiltValue]]
  ) async throws -> ShutdownReport {
    var (order, failures) = ([String](), [ShutdownReport.Failure]())
    var (retired, abandoned) = (Set<ObjectIdentifier>(), [String]())
    for values in children {
      let report: ShutdownReport
      do {
        report = try await values.endInstance()
      } catch let error as ShutdownError {
        report = error.report
      }
      (order, failures, abandoned) = (
        order + report.order, failures + report.failures,
        abandoned + report.abandoned
      )
    }
    // A value built below read this instance's own values, never the other way around; one
    // shut down with its container's own shutdown already is not shut down again.
    let lifecycle = Lifecycle.of(self)
    for values in below {
      let report = await Shutdown.run(lifecycle.claim(values.filter { !$0.hasEnded }))
      (order, failures) = (order + report.order, failures + report.failures)
      for value in values { value.endLifetime() }
    }
    do {
      let report: ShutdownReport
      do {
        report = try await shutdown()
      } catch let error as ShutdownError {
        report = error.report
      }
      (order, failures, abandoned) = (
        order + report.order, failures + report.failures,
        abandoned + report.abandoned
      )
      retired = report.retired
    }
    retire(Set(ownBuiltValues.map(\.key.id)))
    var report = ShutdownReport(order: order, failures: failures, retired: retired)
    report.abandoned = abandoned
    if !failures.isEmpty { throw ShutdownError(report: report) }
    return report
  }
}
