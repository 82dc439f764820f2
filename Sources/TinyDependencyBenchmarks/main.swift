// Measures TinyDependency's read path and scopes against in-process baselines.
//
//   swift run -c release TinyDependencyBenchmarks [--quick]
//
// Prints `case=… ns_per_op=… baseline=… ratio=…` lines, then a table. Machines are noisy:
// compare ratios within one run, not absolute figures across runs.
//
// This file keeps the order of the run; each section of cases is in a `Cases+….swift` file.

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// `--allocations-child <case> <reads>`: a child run under valgrind, before anything is measured.
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

let report = Report(quick: CommandLine.arguments.contains("--quick"))

measureBaselines(report)
// Made after the baselines, as app code makes it; the read and thread cases both read it.
let rootModel = Model()
await measureReads(report, rootModel: rootModel)
measureWrapperCreation(report)
measureScopes(report)
measureFirstReads(report)
measureGraph(report)
await measureAsyncKeys(report)
measureThreads(report, rootModel: rootModel)
measureMemory(report)
measureBuiltins(report)
measureAllocations(report)
report.printTable()
