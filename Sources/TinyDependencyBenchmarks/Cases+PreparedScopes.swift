import TinyDependency
import TinyDependencyLifecycle

/// Measures request scopes through `withPreparedDependencies`, each preparing a key of its own
/// and shutting it down, and the growth of resident memory over a million of them.
@MainActor
func measurePreparedScopes(_ report: Report) async {
  let count = report.quick ? 100_000 : 1_000_000
  await preparedRequests(0..<(count / 20))
  let before = residentBytes()
  let start = now()
  await preparedRequests(0..<count)
  let elapsed = now() - start
  let growth = Double(residentBytes() - before) / 1_048_576
  print(
    "case=memory.preparedScopes ns_per_op=\(format(Double(elapsed) / Double(count))) "
      + "rss_growth_mib=\(format(growth)) (must stay under 64 MiB)"
  )
  report.append(
    Measurement(
      name: "memory.preparedScopes",
      nanosecondsPerOperation: Double(elapsed) / Double(count),
      baseline: nil,
      ratio: nil,
      note: "resident memory grew \(format(growth)) MiB over \(count) scopes"
    )
  )
}

/// Runs one request scope per number in `range`, each preparing its own connection.
private func preparedRequests(_ range: Range<Int>) async {
  for index in range {
    do {
      try await withPreparedDependencies([RequestConnectionKey.self]) {
        $0[RequestNumberKey.self] = index
      } operation: {
        consume(DependencyValues.current[RequestConnectionKey.self])
      }
    } catch {
      fatalError("a prepared request scope failed: \(error)")
    }
  }
}

/// A request's own resource, made from its number.
enum RequestConnectionKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Int { DependencyValues.current[RequestNumberKey.self] }
}
