import TinyDependency

/// Measures the first reads of 10,000 keys in a fresh container, against inserting their
/// default values into a dictionary.
@MainActor
func measureFirstReads(_ report: Report) {
  let tenThousand = generatedKeys(10_000)
  let firstReads = median(iterations: tenThousand.count, repetitions: 5) { n in
    let values = DependencyValues(context: .default)
    for key in tenThousand.prefix(n) { consume(read(key, from: values)) }
  }
  let rawInserts = median(iterations: tenThousand.count, repetitions: 5) { n in
    var storage: [ObjectIdentifier: any Sendable] = [:]
    for key in tenThousand.prefix(n) { storage[ObjectIdentifier(key)] = key.defaultValue }
    consume(storage.count)
  }
  report.record("baseline.dictionary.insert", rawInserts)
  report.record("firstRead.10000keys", firstReads, baseline: "baseline.dictionary.insert")
}
