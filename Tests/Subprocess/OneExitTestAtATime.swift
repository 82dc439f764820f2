package import Testing

/// A trait for tests that run an exit test: such tests run one at a time in the process, away
/// from the concurrency pool.
///
/// While an exit test's child process runs, Swift Testing reads its pipes (the event channel,
/// and standard output and error when observed) with blocking reads in child tasks of the
/// test. In the pool (one thread per core) one exit test that observes standard error holds
/// both threads of a two-core machine for as long as its child runs (a child under
/// ThreadSanitizer, or one that waits for a report delay, runs for seconds): every other async
/// test stops, and their deadlines pass. Under this trait the test's tasks prefer threads of
/// their own (``awayFromThePool(_:)``), and one child at a time keeps the cores for the rest.
package struct OneExitTestAtATime: TestTrait, TestScoping {
  package func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    await ExitTestGate.shared.enter()
    defer { ExitTestGate.shared.leave() }
    try await awayFromThePool { try await function() }
  }
}

extension Trait where Self == OneExitTestAtATime {
  /// Runs the test while no other test with this trait runs.
  package static var oneExitTestAtATime: Self { Self() }
}
