import TinyDependency
import TinyDependencyLifecycle

/// Measures named scope instances: a read of a built scoped value against a read of a shared
/// one in the same instance, and beginning and ending an instance against entering a
/// `withDependencies` scope.
@MainActor
func measureScopeInstances(_ report: Report) async {
  let reads = report.reads
  let session = DependencyValues.current.beginScope(BenchSession.self)
  session.run {
    _ = DependencyValues.current[BenchValueKey.self]
    _ = DependencyValues.current[BenchScopedKey.self]
    report.record(
      "scoped.read.shared",
      median(iterations: reads) { n in
        for _ in 0..<n { consume(DependencyValues.current[BenchValueKey.self]) }
      }
    )
    report.record(
      "scoped.read.built",
      median(iterations: reads) { n in
        for _ in 0..<n { consume(DependencyValues.current[BenchScopedKey.self]) }
      },
      baseline: "scoped.read.shared"
    )
  }
  _ = try? await session.end()

  let entries = reads / 20
  report.record(
    "scoped.instance.withDependencies",
    median(iterations: entries) { n in
      for index in 0..<n {
        withDependencies {
          $0.benchValue = index
        } operation: {
          consume(index)
        }
      }
    }
  )
  // `end()` is async: timed in a loop of its own, median of nine runs, as `median` does.
  var samples: [Double] = []
  for round in 0..<10 {
    let start = now()
    for index in 0..<entries {
      let instance = DependencyValues.current.beginScope(BenchSession.self) {
        $0.benchValue = index
      }
      instance.run { consume(index) }
      do { try await instance.end() } catch { fatalError("end failed: \(error)") }
    }
    if round > 0 { samples.append(Double(now() - start) / Double(entries)) }
  }
  samples.sort()
  report.record(
    "scoped.instance.beginEnd",
    samples[samples.count / 2],
    baseline: "scoped.instance.withDependencies"
  )
}

/// The scope of the benchmark's instances.
enum BenchSession: DependencyScope {}

/// A value scoped to ``BenchSession``.
enum BenchScopedKey: DependencyKey {
  static var defaultValue: Int { 42 }
  static var lifetime: DependencyLifetime { .scoped(BenchSession.self) }
}
