package import Testing

/// A trait for tests that run an exit test: such tests run one at a time in the process.
///
/// While an exit test's child process runs, Swift Testing reads its pipes (the event channel,
/// and standard output and error when observed) with blocking reads in tasks of the
/// concurrency pool. The pool has one thread per core; on two cores, two exit tests at once
/// stop every other async test for as long as their children run (a child under
/// ThreadSanitizer, or one that waits for a report delay, runs for seconds), and those tests'
/// deadlines pass. One at a time, the pool keeps a thread between children.
package struct OneExitTestAtATime: TestTrait, TestScoping {
  package func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    await ExitTestGate.shared.enter()
    defer { ExitTestGate.shared.leave() }
    try await function()
  }
}

extension Trait where Self == OneExitTestAtATime {
  /// Runs the test while no other test with this trait runs.
  package static var oneExitTestAtATime: Self { Self() }
}
