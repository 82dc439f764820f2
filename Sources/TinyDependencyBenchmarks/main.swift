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

// MARK: - Scope entry

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
        baseline: overridden == 0 ? nil : "scope.entry.0overridden"
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
