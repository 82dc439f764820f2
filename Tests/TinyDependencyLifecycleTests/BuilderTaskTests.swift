import TestSubprocess
import Testing
import TinyDependency
import TinyDependencyLifecycle

@Suite("Only a builder's own waits count as its waits, and a loop of builds stops")
struct BuilderTaskTests {
  #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    /// The task the builder starts inherits its scope, but the builder does not wait for it:
    /// the task waiting for a build that waits for the builder is no cycle.
    @Test(.oneExitTestAtATime)
    func aTaskABuilderDoesNotAwaitIsNoCycle() async {
      await #expect(processExitsWith: .success) {
        let values = DependencyValues(context: .default)
        try! await values.prepare([TaskStarterKey.self], timeout: 10)
        try! await values.prepare([AwaitsStarterKey.self], timeout: 10)
        precondition(values[AwaitsStarterKey.self] == 2)
      }
    }

    /// Each build of A starts B in a new scope, and B starts A there: each build is new, but
    /// the chain re-enters A, so it stops with its path instead of building until the deadline.
    @Test(.oneExitTestAtATime)
    func aCycleThroughAScopeInsideABuilderStopsWithItsPath() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        try! await DependencyValues(context: .default).prepare([ScopedLoopAKey.self], timeout: 5)
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("dependency cycle"))
      #expect(message.contains("ScopedLoopAKey -> ScopedLoopBKey -> ScopedLoopAKey"))
    }
  #endif
}
