import TinyDependency
import TinyDependencyCollections
import TinyDependencyFactories

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Measures the time and the growth of resident memory of server-shaped loops: a request scope
/// per round, and one container reused and bound each round.
@MainActor
func measureMemory(_ report: Report) {
  let rounds = report.quick ? 100_000 : 1_000_000
  let server = DependencyValues(context: .default)
  var worker = server
  worker.otherValue = 1
  withDependencies(worker) {
    memoryCase(report, "memory.requestScopes", count: rounds) { index in
      var request = server
      request.benchValue = index
      consume(request[RequestHandlerKey.self].requestID)
    }
  }
  var reused = DependencyValues(context: .default)
  memoryCase(report, "memory.containerReuse", count: rounds) { index in
    reused.benchValue = index
    consume(withDependencies(reused) { DependencyValues.current.benchValue })
  }
  // Two keys set in turn, and a built value read inside: each round's scope differs from the
  // one before in a key the one before did not set.
  var alternating = DependencyValues(context: .default)
  memoryCase(report, "memory.containerReuse.alternating", count: rounds) { index in
    if index & 1 == 0 {
      alternating.benchValue = index
    } else {
      alternating.otherValue = index
    }
    consume(withDependencies(alternating) { DependencyValues.current[ReusedServiceKey.self] })
  }

  // A collection of 10 members read in each request scope that changes one of them: it is
  // built again there, and goes with its scope.
  var collectionServer = server
  collectionServer.register(TenMembersModule.self)
  consume(collectionServer[TenMembersKey.self])
  memoryCase(report, "memory.collection.requestScopes", count: rounds) { index in
    var request = collectionServer
    request[TenMember<M3>.self] = index
    consume(request[TenMembersKey.self][3])
  }

  // A cached factory called with a distinct argument in each request scope: the products go
  // with their scopes.
  withDependencies(worker) {
    memoryCase(report, "memory.factory.requestScopes", count: rounds) { index in
      var request = server
      request.benchValue = index
      withDependencies(request) { consume(DependencyValues.current.cachedProduct(index)) }
    }
  }
}

/// A value that reads nothing, built once and shared by every round's scope.
private enum ReusedServiceKey: DependencyKey {
  static var defaultValue: Int { 7 }
}

/// The current resident memory of the process, in bytes: from /proc on Linux, else the peak.
func residentBytes() -> Int {
  #if canImport(Glibc)
    if let file = fopen("/proc/self/statm", "r") {
      defer { fclose(file) }
      var line = [CChar](repeating: 0, count: 128)
      if fgets(&line, 128, file) != nil {
        let bytes = line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let pages = String(decoding: bytes, as: UTF8.self).split(separator: " ").compactMap {
          Int($0)
        }
        if pages.count >= 2 { return pages[1] * Int(sysconf(Int32(_SC_PAGESIZE))) }
      }
    }
  #endif
  var usage = rusage()
  #if canImport(Darwin)
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss)
  #else
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int(usage.ru_maxrss) * 1024
  #endif
}

/// Runs `body` `count` times and records the time per round and the growth of resident memory.
@MainActor
private func memoryCase(_ report: Report, _ name: String, count: Int, _ body: (Int) -> Void) {
  for index in 0..<(count / 20) { body(index) }
  let before = residentBytes()
  let start = now()
  for index in 0..<count { body(index) }
  let elapsed = now() - start
  let growth = Double(residentBytes() - before) / 1_048_576
  print(
    "case=\(name) ns_per_op=\(format(Double(elapsed) / Double(count))) rss_growth_mib=\(format(growth))"
  )
  report.append(
    Measurement(
      name: name,
      nanosecondsPerOperation: Double(elapsed) / Double(count),
      baseline: nil,
      ratio: nil,
      note: "resident memory grew \(format(growth)) MiB over \(count) rounds"
    )
  )
}
