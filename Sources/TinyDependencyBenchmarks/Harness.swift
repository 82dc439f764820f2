import TinyDependency

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Keeps results observable so the optimizer cannot delete the work that produced them.
nonisolated(unsafe) var sink = 0

@inline(never)
func consume<T>(_ value: T) {
  withUnsafePointer(to: value) { sink &+= Int(bitPattern: $0) & 1 }
}

/// Nanoseconds on a monotonic clock.
func now() -> UInt64 {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// One measured case: the median over repetitions of the time per operation.
struct Measurement {
  var name: String
  var nanosecondsPerOperation: Double
  var baseline: String?
  var ratio: Double?
  var note: String = ""
}

/// Times `body(iterations)` `repetitions` times after a warm-up and returns the median ns/op.
func median(
  iterations: Int,
  repetitions: Int = 9,
  _ body: (Int) -> Void
) -> Double {
  body(max(1, iterations / 10))
  var samples: [Double] = []
  for _ in 0..<repetitions {
    let start = now()
    body(iterations)
    let elapsed = now() - start
    samples.append(Double(elapsed) / Double(iterations))
  }
  samples.sort()
  return samples[samples.count / 2]
}

/// Runs `body` on `threads` threads at once, each for `iterations`; returns wall-clock ns.
func wallTime(threads: Int, iterations: Int, _ body: @escaping @Sendable (Int) -> Void) -> UInt64 {
  final class Context: @unchecked Sendable {
    // `@unchecked Sendable`: written before the threads start, only read by them.
    let body: @Sendable (Int) -> Void
    let iterations: Int
    init(body: @escaping @Sendable (Int) -> Void, iterations: Int) {
      self.body = body
      self.iterations = iterations
    }
  }
  let context = Unmanaged.passRetained(Context(body: body, iterations: iterations))
  defer { context.release() }
  #if canImport(Darwin)
    var handles: [pthread_t?] = Array(repeating: nil, count: threads)
  #else
    var handles: [pthread_t] = Array(repeating: pthread_t(), count: threads)
  #endif
  let start = now()
  for index in 0..<threads {
    let result = pthread_create(
      &handles[index],
      nil,
      { raw in
        #if canImport(Darwin)
          let context = Unmanaged<AnyObject>.fromOpaque(raw).takeUnretainedValue()
        #else
          let context = Unmanaged<AnyObject>.fromOpaque(raw!).takeUnretainedValue()
        #endif
        let typed = unsafeDowncast(context, to: Context.self)
        typed.body(typed.iterations)
        return nil
      },
      context.toOpaque()
    )
    precondition(result == 0, "pthread_create failed")
  }
  for handle in handles {
    #if canImport(Darwin)
      pthread_join(handle!, nil)
    #else
      pthread_join(handle, nil)
    #endif
  }
  return now() - start
}

/// Counts heap allocations by running this executable again under valgrind, which reports the
/// total number of allocations at exit: the difference between two runs of different lengths,
/// divided by the difference in reads, is the allocations per read.
enum AllocationCounter {
  static let childFlag = "--allocations-child"

  /// The reads a child makes, when this process is one: `--allocations-child <case> <reads>`.
  static var child: (name: String, reads: Int)? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: childFlag), index + 2 < arguments.count,
      let reads = Int(arguments[index + 2])
    else { return nil }
    return (arguments[index + 1], reads)
  }

  /// The allocations per read of `caseName`, or nil where valgrind is unavailable.
  static func perRead(caseName: String, short: Int = 1_000, long: Int = 11_000) -> Double? {
    guard let few = heapUsage(caseName: caseName, reads: short),
      let many = heapUsage(caseName: caseName, reads: long)
    else { return nil }
    return Double(many.allocations - few.allocations) / Double(long - short)
  }

  /// The heap bytes still in use at exit per read of `caseName`: what each read keeps. The
  /// default lengths fill hash tables to the same load (1,500 of 2,048 and 12,000 of 16,384
  /// buckets), so the figure includes their spare room at that load.
  static func bytesKeptPerRead(caseName: String, short: Int = 1_500, long: Int = 12_000)
    -> Double?
  {
    guard let few = heapUsage(caseName: caseName, reads: short),
      let many = heapUsage(caseName: caseName, reads: long)
    else { return nil }
    return Double(many.bytesInUse - few.bytesInUse) / Double(long - short)
  }

  /// Valgrind's totals for a child run: allocations made, and bytes still in use at exit.
  private static func heapUsage(caseName: String, reads: Int) -> (
    allocations: Int, bytesInUse: Int
  )? {
    #if canImport(Glibc)
      let log = "/tmp/tinydependency-valgrind-\(getpid())-\(caseName)-\(reads).log"
      defer { unlink(log) }
      let arguments = [
        "valgrind", "--tool=memcheck", "--leak-check=no", "--log-file=\(log)",
        CommandLine.arguments[0], childFlag, caseName, String(reads),
      ]
      guard spawnAndWait(arguments) == 0, let file = fopen(log, "r") else { return nil }
      defer { fclose(file) }
      var line: UnsafeMutablePointer<CChar>?
      var capacity = 0
      defer { free(line) }
      var inUse: Int?
      while getline(&line, &capacity, file) > 0 {
        guard let line else { continue }
        if let found = strstr(line, "in use at exit: ") {
          inUse = number(after: "in use at exit: ", in: String(cString: found))
        }
        if let found = strstr(line, "total heap usage: ") {
          let allocations = number(after: "total heap usage: ", in: String(cString: found))
          guard let allocations, let inUse else { return nil }
          return (allocations, inUse)
        }
      }
      return nil
    #else
      return nil
    #endif
  }

  /// The number, written with thousands separators, that follows `prefix` in `text`.
  private static func number(after prefix: String, in text: String) -> Int? {
    let digits = text.dropFirst(prefix.count).prefix { $0.isNumber || $0 == "," }
    return Int(String(digits.filter(\.isNumber)))
  }

  #if canImport(Glibc)
    private static func spawnAndWait(_ arguments: [String]) -> Int32 {
      let argv = arguments.map { strdup($0) } + [nil]
      defer { argv.forEach { free($0) } }
      var pid = pid_t()
      guard posix_spawnp(&pid, arguments[0], nil, nil, argv, environ) == 0 else { return -1 }
      var status: Int32 = 0
      waitpid(pid, &status, 0)
      return status
    }
  #endif
}
