import Testing
import TinyDependency
import TinyDependencyLifecycle

@Suite("A prepare's timeout and cancellation are its caller's own")
struct PrepareCallerTests {
  @Test func aShortTimeoutFailsOnlyItsOwnCallerOfASharedBuild() async throws {
    let (values, log) = asyncContainer()
    async let patient: Void = values.prepare([GatedKey.self], timeout: 600)
    while log.count("waiting Gated") == 0 { await Task.yield() }
    var failure: (any Error)?
    do { try await values.prepare([GatedKey.self], timeout: 0.3) } catch { failure = error }
    // Opened whatever happened, so that the patient caller's build can end.
    gate.withLock { $0 = true }
    let error = try #require(failure as? PreparationError)
    guard case .timedOut(let limit) = error.reason else {
      Issue.record("expected a time-out, got \(error.reason)")
      return
    }
    #expect(limit == 0.3)
    // The build goes on for the caller still waiting, which gets the value.
    try await patient
    #expect(values.unpreparedKeys(among: [GatedKey.self]).isEmpty)
    #expect(log.count("waiting Gated") == 1)
  }

  @Test func aCallerCancelledBeforeItPreparesBuildsNothingAndKeepsNothing() async throws {
    let (values, log) = asyncContainer(buildMilliseconds: 100)
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await values.prepare([StubbornKey.self])
    }
    await #expect(throws: CancellationError.self) { try await task.value }
    // Long enough for a build that was started anyway to end and be kept.
    try await Task.sleep(nanoseconds: 400_000_000)
    #expect(values.unpreparedKeys(among: [StubbornKey.self]).count == 1)
    #expect(log.count("end Stubborn") == 0)
  }

  @Test func aPrepareInsideABuilderThrowsAtItsOwnTimeout() async throws {
    let (values, _) = asyncContainer()
    // The outer timeout is long; the inner one, 0.5 s, ends the inner wait.
    try await values.prepare([ImpatientBuilderKey.self], timeout: 60)
    #expect(values[ImpatientBuilderKey.self] == #"["SlowKey"]: timedOut(seconds: 0.5)"#)
  }
}
