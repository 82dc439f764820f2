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

/// Begins a million instances (a tenth with `--quick`), reads ten scoped keys in each and ends
/// it; prints the growth of resident memory, which must stay under 64 MiB.
@MainActor
func measureScopeInstanceMemory(_ report: Report) async {
  let count = report.quick ? 100_000 : 1_000_000
  func rounds(_ count: Int) async {
    for _ in 0..<count {
      let instance = DependencyValues.current.beginScope(BenchSession.self)
      consume(readTenScopedKeys(instance.values))
      do { try await instance.end() } catch { fatalError("end failed: \(error)") }
    }
  }
  await rounds(count / 20)
  let before = residentBytes()
  let start = now()
  await rounds(count)
  let elapsed = Double(now() - start) / Double(count)
  let growth = Double(residentBytes() - before) / 1_048_576
  print(
    "case=memory.scopeInstances ns_per_op=\(format(elapsed)) rss_growth_mib=\(format(growth)) "
      + "(must stay under 64 MiB)"
  )
  report.append(
    Measurement(
      name: "memory.scopeInstances",
      nanosecondsPerOperation: elapsed,
      baseline: nil,
      ratio: nil,
      note: "resident memory grew \(format(growth)) MiB over \(count) instances"
    )
  )
}

/// Reads the ten scoped keys of `values`.
private func readTenScopedKeys(_ values: DependencyValues) -> Int {
  let keys: [any BenchScopedNumber.Type] = [
    BenchScoped0.self, BenchScoped1.self, BenchScoped2.self, BenchScoped3.self,
    BenchScoped4.self, BenchScoped5.self, BenchScoped6.self, BenchScoped7.self,
    BenchScoped8.self, BenchScoped9.self,
  ]
  func read<Key: BenchScopedNumber>(_ key: Key.Type) -> Int { values[Key.self] }
  return keys.reduce(0) { $0 + read($1) }
}

/// A key scoped to ``BenchSession`` whose value is its number.
protocol BenchScopedNumber: DependencyKey where Value == Int { static var number: Int { get } }

extension BenchScopedNumber {
  static var defaultValue: Int { number }
  static var lifetime: DependencyLifetime { .scoped(BenchSession.self) }
}

enum BenchScoped0: BenchScopedNumber { static let number = 0 }
enum BenchScoped1: BenchScopedNumber { static let number = 1 }
enum BenchScoped2: BenchScopedNumber { static let number = 2 }
enum BenchScoped3: BenchScopedNumber { static let number = 3 }
enum BenchScoped4: BenchScopedNumber { static let number = 4 }
enum BenchScoped5: BenchScopedNumber { static let number = 5 }
enum BenchScoped6: BenchScopedNumber { static let number = 6 }
enum BenchScoped7: BenchScopedNumber { static let number = 7 }
enum BenchScoped8: BenchScopedNumber { static let number = 8 }
enum BenchScoped9: BenchScopedNumber { static let number = 9 }

/// The scope of the benchmark's instances.
enum BenchSession: DependencyScope {}

/// A value scoped to ``BenchSession``.
enum BenchScopedKey: DependencyKey {
  static var defaultValue: Int { 42 }
  static var lifetime: DependencyLifetime { .scoped(BenchSession.self) }
}
