import Dispatch
import Testing
import TinyDependency
import TinyDependencyLifecycle

@Suite("A prepare's timeout and cancellation are its caller's own")
struct PrepareCallerTests {
  /// Seconds since `start`.
  private func seconds(since start: UInt64) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }

  @Test func aShortTimeoutFailsOnlyItsOwnCallerOfASharedBuild() async throws {
    let (values, log) = asyncContainer(buildMilliseconds: 2_000)
    let start = DispatchTime.now().uptimeNanoseconds
    async let patient: Void = values.prepare([MeasuredKey.self], timeout: 10)
    while log.count("start Measured") == 0 { await Task.yield() }
    let error = try await #require(throws: PreparationError.self) {
      try await values.prepare([MeasuredKey.self], timeout: 0.3)
    }
    #expect(seconds(since: start) < 1.5)
    guard case .timedOut(let limit) = error.reason else {
      Issue.record("expected a time-out, got \(error.reason)")
      return
    }
    #expect(limit == 0.3)
    // The build goes on for the caller still waiting, which gets the value.
    try await patient
    #expect(values.unpreparedKeys(among: [MeasuredKey.self]).isEmpty)
    #expect(log.count("start Measured") == 1)
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
}
