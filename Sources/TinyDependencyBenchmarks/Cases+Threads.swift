import TinyDependency

/// Measures how reads scale from one thread to two, against pure computation and raw reads.
///
/// - Parameters:
///   - report: Where the cases are recorded.
///   - rootModel: The model made at the root, read by `threads.dependency.root`.
@MainActor
func measureThreads(_ report: Report, rootModel: Model) {
  // Each thread sums locally and publishes once, so the threads share nothing but what is measured.
  scaling(report, "threads.compute") { n in
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<n {
      for _ in 0..<16 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
      }
    }
    // `consume` only reads where its argument lies, so `state` itself would be dead and the
    // loop deleted (0.01 ns an operation): fold its value into the sink instead.
    sink &+= Int(truncatingIfNeeded: state)
  }
  scaling(report, "threads.raw.unbound") { n in
    var total = 0
    for _ in 0..<n { total &+= rawRead() }
    consume(total)
  }
  scaling(report, "threads.dependency.root") { [rootModel] n in
    var total = 0
    for _ in 0..<n { total &+= rootModel.value }
    consume(total)
  }
  scaling(report, "threads.current.root") { n in
    var total = 0
    for _ in 0..<n { total &+= DependencyValues.current[BenchValueKey.self] }
    consume(total)
  }
  // Each thread in a scope of its own with its own model, as per-request work would be.
  scaling(report, "threads.dependency.scoped") { n in
    withDependencies {
      $0.benchValue = n
    } operation: {
      let model = Model()
      var total = 0
      for _ in 0..<n { total &+= model.value }
      consume(total)
    }
  }
}

/// Runs `body` on one thread and on two, five times each, and records the median wall time per
/// operation on two threads with the throughput of two threads against one.
@MainActor
private func scaling(_ report: Report, _ name: String, _ body: @escaping @Sendable (Int) -> Void) {
  let iterations = report.reads
  var one: [UInt64] = []
  var two: [UInt64] = []
  for _ in 0..<5 {
    one.append(wallTime(threads: 1, iterations: iterations, body))
    two.append(wallTime(threads: 2, iterations: iterations, body))
  }
  one.sort()
  two.sort()
  let speedup = 2 * Double(one[2]) / Double(two[2])
  print("case=\(name) throughput_2threads_vs_1=\(format(speedup))")
  report.append(
    Measurement(
      name: name,
      nanosecondsPerOperation: Double(two[2]) / Double(2 * iterations),
      baseline: nil,
      ratio: nil,
      note: "2 threads: \(format(speedup))x one thread"
    )
  )
}
