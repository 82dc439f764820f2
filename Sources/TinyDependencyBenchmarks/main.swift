// Measures TinyDependency's read path and scopes against in-process baselines.
//
//   swift run -c release TinyDependencyBenchmarks [--quick] [--only section,…]
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

// `--callgrind <case> <n>`: one operation `n` times, for `scripts/profile-breakdown.sh`.
if let index = CommandLine.arguments.firstIndex(of: "--callgrind"),
  index + 2 < CommandLine.arguments.count
{
  let name = CommandLine.arguments[index + 1]
  guard let setUp = callgrindCases[name], let count = Int(CommandLine.arguments[index + 2]) else {
    print("unknown case \(name); cases: \(callgrindCases.keys.sorted().joined(separator: ", "))")
    exit(2)
  }
  setUp { operation in callgrindMeasuredLoop(count, operation) }
  exit(0)
}

// `--callgrind-async <case> <n>`: the same for an async operation.
if let index = CommandLine.arguments.firstIndex(of: "--callgrind-async"),
  index + 2 < CommandLine.arguments.count
{
  let name = CommandLine.arguments[index + 1]
  guard let operation = asyncCallgrindCases[name], let count = Int(CommandLine.arguments[index + 2])
  else {
    print(
      "unknown case \(name); cases: \(asyncCallgrindCases.keys.sorted().joined(separator: ", "))"
    )
    exit(2)
  }
  await callgrindAsyncMeasuredLoop(count, operation)
  exit(0)
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

// `--only reads,scopes`: just the sections named, for working on them. Section names:
// baselines, reads, creation, scopes, firstReads, graph, async, preparedScopes, scopeInstances,
// threads, memory, builtins, allocations, factories, collections.
let only = CommandLine.arguments.firstIndex(of: "--only").flatMap { index in
  index + 1 < CommandLine.arguments.count
    ? Set(CommandLine.arguments[index + 1].split(separator: ",").map(String.init)) : nil
}
let report = Report(quick: CommandLine.arguments.contains("--quick"), only: only)

if report.runs("baselines") { measureBaselines(report) }
// Made after the baselines, as app code makes it; the read and thread cases both read it.
let rootModel = Model()
if report.runs("reads") { await measureReads(report, rootModel: rootModel) }
if report.runs("creation") { measureWrapperCreation(report) }
if report.runs("scopes") { measureScopes(report) }
if report.runs("firstReads") { measureFirstReads(report) }
if report.runs("graph") { measureGraph(report) }
if report.runs("async") { await measureAsyncKeys(report) }
if report.runs("preparedScopes") { await measurePreparedScopes(report) }
if report.runs("scopeInstances") {
  await measureScopeInstances(report)
  await measureScopeInstanceMemory(report)
}
if report.runs("threads") { measureThreads(report, rootModel: rootModel) }
if report.runs("memory") { measureMemory(report) }
if report.runs("builtins") { measureBuiltins(report) }
if report.runs("factories") { measureFactories(report) }
if report.runs("collections") { measureCollections(report) }
if report.runs("allocations") { measureAllocations(report) }
report.printTable()
