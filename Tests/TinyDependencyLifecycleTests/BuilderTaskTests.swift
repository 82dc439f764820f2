import Testing
import TinyDependency
import TinyDependencyLifecycle

@Suite("Only a builder's own waits count as its waits")
struct BuilderTaskTests {
  #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    /// The task the builder starts inherits its scope, but the builder does not wait for it:
    /// the task waiting for a build that waits for the builder is no cycle.
    @Test func aTaskABuilderDoesNotAwaitIsNoCycle() async {
      await #expect(processExitsWith: .success) {
        let values = DependencyValues(context: .default)
        try! await values.prepare([TaskStarterKey.self], timeout: 10)
        try! await values.prepare([AwaitsStarterKey.self], timeout: 10)
        precondition(values[AwaitsStarterKey.self] == 2)
      }
    }
  #endif
}
