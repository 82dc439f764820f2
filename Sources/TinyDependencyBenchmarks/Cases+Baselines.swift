/// Measures the baselines the read cases compare against: a constant and a raw task-local read,
/// unbound and bound.
@MainActor
func measureBaselines(_ report: Report) {
  let reads = report.reads
  let constant = 42
  report.record(
    "let.read",
    median(iterations: reads) { n in
      for _ in 0..<n { consume(constant) }
    }
  )

  report.record(
    "taskLocal.raw.unbound",
    median(iterations: reads) { n in
      for _ in 0..<n { consume(rawRead()) }
    }
  )

  Raw.$current.withValue(RawValues(storage: [ObjectIdentifier(BenchValueKey.self): 7])) {
    report.record(
      "taskLocal.raw.bound",
      median(iterations: reads) { n in
        for _ in 0..<n { consume(rawRead()) }
      }
    )
  }
}
