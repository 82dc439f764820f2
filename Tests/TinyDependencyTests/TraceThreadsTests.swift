import Testing
import TinyDependency

@testable import TinyDependencyGraph

@Suite("A tracing thread that met a problem ends instead of staying parked")
struct TraceThreadsTests {
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func tracingCyclesLeavesNoThreadBehind() async throws {
    for _ in 0..<40 {
      let graph = DependencyGraph.trace([FeedKey.self])
      #expect(graph.cycles.count == 1)
    }
    // Counted are the tracing threads alone (the process's thread count moves with every test
    // beside this one). A thread that ended counts itself out just after its trace reported,
    // and other tests may be tracing too: forty parked threads would never drop below twenty.
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(30))
    var running = TraceThreads.running.withLock { $0 }
    while running >= 20, clock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
      running = TraceThreads.running.withLock { $0 }
    }
    #expect(
      running < 20,
      "tracing threads still running after 40 traces that met a cycle: \(running)"
    )
  }
}
