// Measures TinyDependency's read path and scopes against in-process baselines.
//
//   swift run -c release TinyDependencyBenchmarks [--quick]
//
// Prints `case=… ns_per_op=… baseline=… ratio=…` lines, then a table. Machines are noisy:
// compare ratios within one run, not absolute figures across runs.

import Foundation
import TinyDependency
import TinyDependencyBuiltins

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// Read loops whose allocations are counted: each sets up its scope, then passes one read to
/// `run`, which repeats it as often as the child process was asked to.
let allocationCases: [String: @MainActor (_ run: (_ read: () -> Void) -> Void) -> Void] = [
  "allocations.sanity.malloc": { run in
    run {
      let pointer = UnsafeMutablePointer<Int>.allocate(capacity: 1)
      consume(pointer)
      pointer.deallocate()
    }
  },
  "allocations.raw.unbound": { run in
    run { consume(rawRead()) }
  },
  "allocations.dependency.root": { run in
    let model = Model()
    run { consume(model.value) }
  },
  "allocations.current.subscript": { run in
    _ = DependencyValues.current[BenchValueKey.self]
    run { consume(DependencyValues.current[BenchValueKey.self]) }
  },
  "allocations.dependency.overridden": { run in
    let model = Model()
    withDependencies {
      $0.benchValue = 7
    } operation: {
      run { consume(model.value) }
    }
  },
  "allocations.firstRead": { run in
    let keys = generatedKeys(12_000)
    let values = DependencyValues(context: .default)
    var next = 0
    run {
      let key = keys[next % keys.count]
      consume(read(key, from: values))
      next += 1
    }
  },
  "allocations.scope.entry.raw": { run in
    var index = 0
    run {
      Raw.$current.withValue(rawValues(setting: index)) { consume(index) }
      index += 1
    }
  },
  "allocations.scope.entry": { run in
    var index = 0
    run {
      withDependencies {
        $0.benchValue = index
      } operation: {
        consume(index)
      }
      index += 1
    }
  },
  "allocations.scope.entry.read": { run in
    _ = DependencyValues.current.benchValue
    var index = 0
    run {
      withDependencies {
        $0.otherValue = index
      } operation: {
        consume(DependencyValues.current.benchValue)
      }
      index += 1
    }
  },
  "allocations.dependency.create.root": { run in
    run { consume(Model()) }
  },
  "allocations.dependency.create.scoped": { run in
    withDependencies {
      $0.benchValue = 7
    } operation: {
      run { consume(Model()) }
    }
  },
  "allocations.dependency.create.scoped3": { run in
    withDependencies {
      $0.benchValue = 7
    } operation: {
      run { consume(ThreeWrapperModel()) }
    }
  },
  "allocations.scope.entry.create3": { run in
    var index = 0
    run {
      withDependencies {
        $0.benchValue = index
      } operation: {
        consume(ThreeWrapperModel())
      }
      index += 1
    }
  },
  "allocations.dictionary.insert": { run in
    let keys = generatedKeys(12_000)
    var storage: [ObjectIdentifier: any Sendable] = [:]
    var next = 0
    run {
      let key = keys[next % keys.count]
      storage[ObjectIdentifier(key)] = key.defaultValue
      next += 1
    }
    consume(storage.count)
  },
  "allocations.dependency.captured": { run in
    let model = withDependencies {
      $0.benchValue = 9
    } operation: {
      Model()
    }
    withDependencies {
      $0.otherValue = 1
    } operation: {
      run { consume(model.value) }
    }
  },
]

if let child = AllocationCounter.child, let setUp = allocationCases[child.name] {
  setUp { read in
    for _ in 0..<child.reads { read() }
    // Exits here, with what the case set up still alive, so valgrind counts what it keeps.
    exit(0)
  }
}

// `--prepare-only`: just the preparation cases, for working on them.
if CommandLine.arguments.contains("--prepare-only") {
  for _ in 0..<3 {
    let critical = await preparationTime(chains[0], repetitions: 5)
    let all = await preparationTime(chains.flatMap { $0 }, repetitions: 5)
    print(
      "prepare.criticalPath=\(critical / 1e6) ms prepare.chains=\(all / 1e6) ms ratio=\(all / critical)"
    )
  }
  exit(0)
}

let quick = CommandLine.arguments.contains("--quick")
let reads = quick ? 200_000 : 2_000_000
var results: [Measurement] = []

@MainActor
func record(_ name: String, _ ns: Double, baseline: String? = nil, note: String = "") {
  let base = baseline.flatMap { name in results.first { $0.name == name } }
  let ratio = base.map { ns / $0.nanosecondsPerOperation }
  results.append(
    Measurement(
      name: name,
      nanosecondsPerOperation: ns,
      baseline: baseline,
      ratio: ratio,
      note: note
    )
  )
  var line = "case=\(name) ns_per_op=\(format(ns))"
  if let baseline, let ratio { line += " baseline=\(baseline) ratio=\(format(ratio))" }
  print(line)
}

func format(_ value: Double) -> String {
  let scaled = (value * 100).rounded() / 100
  return String(scaled)
}

// MARK: - Baselines

let constant = 42
record(
  "let.read",
  median(iterations: reads) { n in
    for _ in 0..<n { consume(constant) }
  }
)

record(
  "taskLocal.raw.unbound",
  median(iterations: reads) { n in
    for _ in 0..<n { consume(rawRead()) }
  }
)

Raw.$current.withValue(RawValues(storage: [ObjectIdentifier(BenchValueKey.self): 7])) {
  record(
    "taskLocal.raw.bound",
    median(iterations: reads) { n in
      for _ in 0..<n { consume(rawRead()) }
    }
  )
}

// MARK: - Reads

let rootModel = Model()
_ = rootModel.value
record(
  "dependency.root",
  median(iterations: reads) { n in
    for _ in 0..<n { consume(rootModel.value) }
  },
  baseline: "taskLocal.raw.unbound"
)

// Reads of a prepared async key are reads of a built value: the same path as `dependency.root`.
do {
  try await DependencyValues.current.prepare([PreparedValueKey.self])
} catch {
  fatalError("prepare failed: \(error)")
}
let preparedModel = PreparedModel()
_ = preparedModel.value
record(
  "dependency.prepared",
  median(iterations: reads) { n in
    for _ in 0..<n { consume(preparedModel.value) }
  },
  baseline: "dependency.root"
)

let letModel = LetModel()
_ = letModel.value()
record(
  "dependency.let",
  median(iterations: reads) { n in
    for _ in 0..<n { consume(letModel.value()) }
  },
  baseline: "dependency.root"
)

_ = DependencyValues.current.benchValue
record(
  "current.subscript",
  median(iterations: reads) { n in
    for _ in 0..<n { consume(DependencyValues.current[BenchValueKey.self]) }
  },
  baseline: "taskLocal.raw.unbound"
)

withDependencies {
  $0.benchValue = 7
} operation: {
  record(
    "dependency.overridden",
    median(iterations: reads) { n in
      for _ in 0..<n { consume(rootModel.value) }
    },
    baseline: "taskLocal.raw.bound"
  )
}

func nested(_ depth: Int, _ body: () -> Void) {
  if depth == 0 { return body() }
  withDependencies {
    $0.benchValue = depth
    $0.otherValue = depth
  } operation: {
    nested(depth - 1, body)
  }
}

nested(10) {
  record(
    "dependency.overridden.10scopes",
    median(iterations: reads) { n in
      for _ in 0..<n { consume(rootModel.value) }
    },
    baseline: "taskLocal.raw.bound"
  )
}

let capturedModel = withDependencies {
  $0.benchValue = 9
} operation: {
  Model()
}
withDependencies {
  $0.otherValue = 1
} operation: {
  _ = capturedModel.value
  record(
    "dependency.captured",
    median(iterations: reads) { n in
      for _ in 0..<n { consume(capturedModel.value) }
    },
    baseline: "taskLocal.raw.bound"
  )
}

// MARK: - Wrapper creation

record(
  "dependency.create.root",
  median(iterations: reads) { n in
    for _ in 0..<n { consume(Model()) }
  }
)
withDependencies {
  $0.benchValue = 7
} operation: {
  record(
    "dependency.create.scoped",
    median(iterations: reads) { n in
      for _ in 0..<n { consume(Model()) }
    },
    baseline: "dependency.create.root"
  )
}

// MARK: - Scope entry

// The raw baseline: a task-local bound to a copy of a one-key dictionary with that key set.
_ = median(iterations: reads / 20) { n in
  for index in 0..<n { Raw.$current.withValue(rawValues(setting: index)) { consume(index) } }
}
record(
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
      record(
        "scope.entry.\(overridden)overridden",
        ns,
        baseline: "scope.entry.raw"
      )
    }
  }
}

// MARK: - First reads

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
record("baseline.dictionary.insert", rawInserts)
record("firstRead.10000keys", firstReads, baseline: "baseline.dictionary.insert")

// MARK: - Graph cycles

/// A graph in which key `i` reads the keys `edges(i)` returns.
func graph(_ keys: [any IntKey.Type], _ edges: (Int) -> [Int]) -> DependencyGraph {
  DependencyGraph(
    context: .default,
    reads: keys.indices.map { index in
      (key: keys[index], reads: edges(index).map { keys[$0] as any DependencyKey.Type })
    }
  )
}

// Keys sorted by name, each reading the next two: no cycle, and every simple path a walk of
// all of them would take.
let ladderKeys = generatedKeys(100).sorted {
  DependencyGraph(context: .default, reads: [($0, [])]).nodes[0].name
    < DependencyGraph(context: .default, reads: [($1, [])]).nodes[0].name
}
let ladder = graph(ladderKeys) { Array(($0 + 1)..<min($0 + 3, ladderKeys.count)) }
record(
  "graph.cycles.chain100",
  median(iterations: quick ? 20 : 200) { n in
    for _ in 0..<n { consume(ladder.cycles.count) }
  },
  note: "100 keys, each reading the next two; \(ladder.cycles.count) cycles"
)

// 10,000 keys, each reading three others at random (seeded): one large strongly connected
// component with more cycles than the limit.
/// A seeded xorshift generator, so every run measures the same graph.
struct XorShift {
  var state: UInt64 = 0x2545_F491_4F6C_DD1D
  mutating func next(_ bound: Int) -> Int {
    state ^= state << 13
    state ^= state >> 7
    state ^= state << 17
    return Int(state % UInt64(bound))
  }
}
var random = XorShift()
let randomKeys = generatedKeys(10_000)
let randomGraph = graph(randomKeys) { _ in (0..<3).map { _ in random.next(randomKeys.count) } }
record(
  "graph.cycles.random10k",
  median(iterations: quick ? 2 : 10, repetitions: 5) { n in
    for _ in 0..<n { consume(randomGraph.cycles.count) }
  },
  note: "10,000 keys, 3 random reads each; \(randomGraph.cycles.count) cycles listed"
    + (randomGraph.hasMoreCycles ? " (limit reached)" : "")
)

// MARK: - Async keys

// A request scope with its own request number, reading five values built or prepared before.
func requestLoop(
  _ root: DependencyValues,
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

let syncRoot = DependencyValues(context: .default)
func readSyncFive(_ values: DependencyValues) -> Int {
  values[SyncServiceKey<T1>.self] + values[SyncServiceKey<T2>.self]
    + values[SyncServiceKey<T3>.self] + values[SyncServiceKey<T4>.self]
    + values[SyncServiceKey<T5>.self]
}
_ = readSyncFive(syncRoot)
record("request.syncKeys", requestLoop(syncRoot, readSyncFive))

let asyncRoot = DependencyValues(context: .default)
do {
  try await asyncRoot.prepare([
    AsyncServiceKey<T1>.self, AsyncServiceKey<T2>.self, AsyncServiceKey<T3>.self,
    AsyncServiceKey<T4>.self, AsyncServiceKey<T5>.self,
  ])
} catch {
  fatalError("prepare failed: \(error)")
}
func readAsyncFive(_ values: DependencyValues) -> Int {
  values[AsyncServiceKey<T1>.self] + values[AsyncServiceKey<T2>.self]
    + values[AsyncServiceKey<T3>.self] + values[AsyncServiceKey<T4>.self]
    + values[AsyncServiceKey<T5>.self]
}
record(
  "request.asyncKeys",
  requestLoop(asyncRoot, readAsyncFive),
  baseline: "request.syncKeys"
)

// Preparing 10 independent chains of 100 keys, each build sleeping 1 ms, against one chain.
let chainRepetitions = quick ? 3 : 5
record(
  "prepare.criticalPath",
  await preparationTime(chains[0], repetitions: chainRepetitions)
)
record(
  "prepare.chains",
  await preparationTime(chains.flatMap { $0 }, repetitions: chainRepetitions),
  baseline: "prepare.criticalPath",
  note: "1,000 keys in 10 chains of 100, 1 ms per build"
)

// MARK: - Two threads

@MainActor
func scaling(_ name: String, _ body: @escaping @Sendable (Int) -> Void) {
  let iterations = reads
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
  results.append(
    Measurement(
      name: name,
      nanosecondsPerOperation: Double(two[2]) / Double(2 * iterations),
      baseline: nil,
      ratio: nil,
      note: "2 threads: \(format(speedup))x one thread"
    )
  )
}

// Each thread sums locally and publishes once, so the threads share nothing but what is measured.
scaling("threads.compute") { n in
  var state: UInt64 = 0x9E37_79B9_7F4A_7C15
  for _ in 0..<n {
    for _ in 0..<16 {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
    }
  }
  consume(state)
}
scaling("threads.raw.unbound") { n in
  var total = 0
  for _ in 0..<n { total &+= rawRead() }
  consume(total)
}
scaling("threads.dependency.root") { [rootModel] n in
  var total = 0
  for _ in 0..<n { total &+= rootModel.value }
  consume(total)
}
scaling("threads.current.root") { n in
  var total = 0
  for _ in 0..<n { total &+= DependencyValues.current[BenchValueKey.self] }
  consume(total)
}
// Each thread in a scope of its own with its own model, as per-request work would be.
scaling("threads.dependency.scoped") { n in
  withDependencies {
    $0.benchValue = n
  } operation: {
    let model = Model()
    var total = 0
    for _ in 0..<n { total &+= model.value }
    consume(total)
  }
}

// MARK: - Memory of server-shaped loops

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
func memoryCase(_ name: String, count: Int, _ body: (Int) -> Void) {
  for index in 0..<(count / 20) { body(index) }
  let before = residentBytes()
  let start = now()
  for index in 0..<count { body(index) }
  let elapsed = now() - start
  let growth = Double(residentBytes() - before) / 1_048_576
  print(
    "case=\(name) ns_per_op=\(format(Double(elapsed) / Double(count))) rss_growth_mib=\(format(growth))"
  )
  results.append(
    Measurement(
      name: name,
      nanosecondsPerOperation: Double(elapsed) / Double(count),
      baseline: nil,
      ratio: nil,
      note: "resident memory grew \(format(growth)) MiB over \(count) rounds"
    )
  )
}

let rounds = quick ? 100_000 : 1_000_000
let server = DependencyValues(context: .default)
var worker = server
worker.otherValue = 1
withDependencies(worker) {
  memoryCase("memory.requestScopes", count: rounds) { index in
    var request = server
    request.benchValue = index
    consume(request[RequestHandlerKey.self].requestID)
  }
}
var reused = DependencyValues(context: .default)
memoryCase("memory.containerReuse", count: rounds) { index in
  reused.benchValue = index
  consume(withDependencies(reused) { DependencyValues.current.benchValue })
}

// MARK: - Built-ins

/// Reads the built-ins as app code does.
struct BuiltinsModel: Sendable {
  @Dependency(\.date.now) var now
  @Dependency(\.date) var date
  @Dependency(\.uuid) var uuid
}

let builtins = BuiltinsModel()
_ = (builtins.now, builtins.uuid())
record(
  "builtins.Date()",
  median(iterations: reads) { n in
    for _ in 0..<n { consume(Date()) }
  }
)
record(
  "builtins.date.now",
  median(iterations: reads) { n in
    for _ in 0..<n { consume(builtins.now) }
  },
  baseline: "builtins.Date()"
)
record(
  "builtins.date()",
  median(iterations: reads) { n in
    for _ in 0..<n { consume(builtins.date()) }
  },
  baseline: "builtins.Date()"
)
record(
  "builtins.UUID()",
  median(iterations: reads / 4) { n in
    for _ in 0..<n { consume(UUID()) }
  }
)
record(
  "builtins.uuid()",
  median(iterations: reads / 4) { n in
    for _ in 0..<n { consume(builtins.uuid()) }
  },
  baseline: "builtins.UUID()"
)

// MARK: - Allocations

print("")
for name in allocationCases.keys.sorted() {
  if let per = AllocationCounter.perRead(caseName: name) {
    print("case=\(name) heap_allocations_per_read=\(format(per))")
    results.append(
      Measurement(
        name: name,
        nanosecondsPerOperation: .nan,
        baseline: nil,
        ratio: nil,
        note: "\(format(per)) heap allocations per read (valgrind)"
      )
    )
  } else {
    print("case=\(name) skipped: allocations are counted with valgrind, which is not available")
  }
}

// The heap a container keeps per built key, against a dictionary of the same values.
for name in ["allocations.dictionary.insert", "allocations.firstRead"] {
  if let bytes = AllocationCounter.bytesKeptPerRead(caseName: name) {
    let label = name == "allocations.firstRead" ? "memory.firstRead" : "memory.dictionary.insert"
    print("case=\(label) bytes_kept_per_key=\(format(bytes))")
    results.append(
      Measurement(
        name: label,
        nanosecondsPerOperation: .nan,
        baseline: nil,
        ratio: nil,
        note: "\(format(bytes)) heap bytes kept per key (valgrind)"
      )
    )
  }
}

// MARK: - Table

print("")
print(pad("case", 34) + pad("ns/op", 10) + pad("baseline", 24) + pad("ratio", 8) + "note")
for result in results {
  let ns = result.nanosecondsPerOperation.isNaN ? "-" : format(result.nanosecondsPerOperation)
  print(
    pad(result.name, 34) + pad(ns, 10) + pad(result.baseline ?? "-", 24)
      + pad(result.ratio.map(format) ?? "-", 8) + result.note
  )
}

func pad(_ text: String, _ width: Int) -> String {
  text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}
