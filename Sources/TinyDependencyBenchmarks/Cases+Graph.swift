import TinyDependency
import TinyDependencyGraph

/// Measures listing the cycles of a graph: a ladder of 100 keys without cycles, and 10,000 keys
/// read at random with more cycles than the limit.
@MainActor
func measureGraph(_ report: Report) {
  // Keys sorted by name, each reading the next two: no cycle, and every simple path a walk of
  // all of them would take.
  let ladderKeys = generatedKeys(100).sorted {
    DependencyGraph(context: .default, reads: [($0, [])]).nodes[0].name
      < DependencyGraph(context: .default, reads: [($1, [])]).nodes[0].name
  }
  let ladder = graph(ladderKeys) { Array(($0 + 1)..<min($0 + 3, ladderKeys.count)) }
  report.record(
    "graph.cycles.chain100",
    median(iterations: report.quick ? 20 : 200) { n in
      for _ in 0..<n { consume(ladder.cycles.count) }
    },
    note: "100 keys, each reading the next two; \(ladder.cycles.count) cycles"
  )

  // 10,000 keys, each reading three others at random (seeded): one large strongly connected
  // component with more cycles than the limit.
  var random = XorShift()
  let randomKeys = generatedKeys(10_000)
  let randomGraph = graph(randomKeys) { _ in (0..<3).map { _ in random.next(randomKeys.count) } }
  report.record(
    "graph.cycles.random10k",
    median(iterations: report.quick ? 2 : 10, repetitions: 5) { n in
      for _ in 0..<n { consume(randomGraph.cycles.count) }
    },
    note: "10,000 keys, 3 random reads each; \(randomGraph.cycles.count) cycles listed"
      + (randomGraph.hasMoreCycles ? " (limit reached)" : "")
  )
}

/// A graph in which key `i` reads the keys `edges(i)` returns.
private func graph(_ keys: [any IntKey.Type], _ edges: (Int) -> [Int]) -> DependencyGraph {
  DependencyGraph(
    context: .default,
    reads: keys.indices.map { index in
      (key: keys[index], reads: edges(index).map { keys[$0] as any DependencyKey.Type })
    }
  )
}

/// A seeded xorshift generator, so every run measures the same graph.
private struct XorShift {
  var state: UInt64 = 0x2545_F491_4F6C_DD1D

  /// Returns the next number below `bound`.
  mutating func next(_ bound: Int) -> Int {
    state ^= state << 13
    state ^= state >> 7
    state ^= state << 17
    return Int(state % UInt64(bound))
  }
}
