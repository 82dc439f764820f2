import TinyDependency
import TinyDependencyLifecycle

/// Measures request scopes reading five sync or prepared async keys, and preparing ten chains
/// of async keys against one.
@MainActor
func measureAsyncKeys(_ report: Report) async {
  let syncRoot = DependencyValues(context: .default)
  _ = readSyncFive(syncRoot)
  report.record("request.syncKeys", requestLoop(syncRoot, reads: report.reads, readSyncFive))

  // Each request scope builds its own value of a key that reads the request's number, after
  // asking the scopes around it, whose value it can't use.
  let echoRoot = DependencyValues(context: .default)
  _ = echoRoot[RequestEchoKey.self]
  report.record(
    "request.builtPerRequest",
    requestLoop(echoRoot, reads: report.reads) { $0[RequestEchoKey.self] },
    note: "1 key built in each request scope"
  )

  let asyncRoot = DependencyValues(context: .default)
  do {
    try await asyncRoot.prepare([
      AsyncServiceKey<T1>.self, AsyncServiceKey<T2>.self, AsyncServiceKey<T3>.self,
      AsyncServiceKey<T4>.self, AsyncServiceKey<T5>.self,
    ])
  } catch {
    fatalError("prepare failed: \(error)")
  }
  report.record(
    "request.asyncKeys",
    requestLoop(asyncRoot, reads: report.reads, readAsyncFive),
    baseline: "request.syncKeys"
  )

  // Preparing 10 independent chains of 100 keys, each build sleeping 1 ms, against one chain.
  let chainRepetitions = report.quick ? 3 : 5
  report.record(
    "prepare.criticalPath",
    await preparationTime(chains[0], repetitions: chainRepetitions)
  )
  report.record(
    "prepare.chains",
    await preparationTime(chains.flatMap { $0 }, repetitions: chainRepetitions),
    baseline: "prepare.criticalPath",
    note: "1,000 keys in 10 chains of 100, 1 ms per build"
  )
}

/// Times request scopes, each with its own request number, reading five values built or
/// prepared before in `root`; returns the median ns per request.
private func requestLoop(
  _ root: DependencyValues,
  reads: Int,
  _ readFive: @escaping (DependencyValues) -> Int
) -> Double {
  withDependencies(root) {
    median(iterations: reads / 20) { n in
      for index in 0..<n {
        withDependencies {
          $0[RequestNumberKey.self] = index
        } operation: {
          consume(readFive(DependencyValues.current))
        }
      }
    }
  }
}

/// Reads five synchronous keys and sums them.
private func readSyncFive(_ values: DependencyValues) -> Int {
  values[SyncServiceKey<T1>.self] + values[SyncServiceKey<T2>.self]
    + values[SyncServiceKey<T3>.self] + values[SyncServiceKey<T4>.self]
    + values[SyncServiceKey<T5>.self]
}

/// Reads five prepared async keys and sums them.
private func readAsyncFive(_ values: DependencyValues) -> Int {
  values[AsyncServiceKey<T1>.self] + values[AsyncServiceKey<T2>.self]
    + values[AsyncServiceKey<T3>.self] + values[AsyncServiceKey<T4>.self]
    + values[AsyncServiceKey<T5>.self]
}
