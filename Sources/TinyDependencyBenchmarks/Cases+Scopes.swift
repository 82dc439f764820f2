import TinyDependency

/// Measures entering a scope that sets one key, against a raw task-local binding, with 0 to
/// 1,000 keys already overridden around it.
@MainActor
func measureScopes(_ report: Report) {
  let reads = report.reads
  // The raw baseline: a task-local bound to a copy of a one-key dictionary with that key set.
  _ = median(iterations: reads / 20) { n in
    for index in 0..<n { Raw.$current.withValue(rawValues(setting: index)) { consume(index) } }
  }
  report.record(
    "scope.entry.raw",
    median(iterations: reads / 20) { n in
      for index in 0..<n { Raw.$current.withValue(rawValues(setting: index)) { consume(index) } }
    }
  )

  let manyKeys = generatedKeys(1_000)
  // A throwaway round first, so that no case pays for warming up the allocator.
  for overridden in [-1, 0, 10, 100, 1_000] {
    withDependencies {
      for key in manyKeys.prefix(max(overridden, 0)) { set(key, 2, in: &$0) }
    } operation: {
      let ns = median(iterations: reads / 20) { n in
        for index in 0..<n {
          withDependencies {
            $0.benchValue = index
          } operation: {
            consume(index)
          }
        }
      }
      if overridden >= 0 {
        report.record(
          "scope.entry.\(overridden)overridden",
          ns,
          baseline: "scope.entry.raw"
        )
      }
    }
  }
}
