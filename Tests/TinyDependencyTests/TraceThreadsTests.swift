import Testing

@testable import TinyDependencyGraph

#if canImport(Glibc)
  import Glibc

  /// The threads of this process, from `/proc/self/status`.
  private func threadCount() -> Int? {
    guard let file = fopen("/proc/self/status", "r") else { return nil }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
      let text = String(
        decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
        as: UTF8.self
      )
      if text.hasPrefix("Threads:") {
        return Int(text.dropFirst("Threads:".count).filter { !$0.isWhitespace })
      }
    }
    return nil
  }

  @Suite("A tracing thread that met a problem ends instead of staying parked")
  struct TraceThreadsTests {
    @Test func tracingCyclesLeavesNoThreadBehind() throws {
      let before = try #require(threadCount())
      for _ in 0..<40 {
        let graph = DependencyGraph.trace([FeedKey.self])
        #expect(graph.cycles.count == 1)
      }
      // Other tests run beside this one and start threads of their own: a parked thread a
      // finding would leave 40 behind.
      let after = try #require(threadCount())
      #expect(after - before < 20, "threads before: \(before), after: \(after)")
    }
  }
#endif
