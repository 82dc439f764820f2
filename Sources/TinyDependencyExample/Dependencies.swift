import Dispatch
import TinyDependency

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// MARK: - Clock

/// A point in time, in whole seconds since 1970, printed as ISO 8601 UTC.
struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
  var secondsSince1970: Int

  static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
    lhs.secondsSince1970 < rhs.secondsSince1970
  }

  var description: String {
    var seconds = time_t(secondsSince1970)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
      + "T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
  }
}

/// Tells the time.
struct WallClock: Sendable {
  var now: @Sendable () -> Timestamp

  /// The system's real-time clock.
  static let system = WallClock {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Timestamp(secondsSince1970: Int(spec.tv_sec))
  }

  /// Always the same moment.
  static func fixed(_ timestamp: Timestamp) -> WallClock {
    WallClock { timestamp }
  }
}

enum WallClockKey: DependencyKey {
  static let defaultValue = WallClock.system
  static let testValue = WallClock.fixed(Timestamp(secondsSince1970: 1_767_225_600))
}

extension DependencyValues {
  var clock: WallClock {
    get { self[WallClockKey.self] }
    set { self[WallClockKey.self] = newValue }
  }
}

// MARK: - Identifiers

/// Makes identifiers for new to-dos.
struct IDGenerator: Sendable {
  var next: @Sendable () -> String

  /// Random 64-bit identifiers.
  static let random = IDGenerator {
    let bits = UInt64.random(in: .min ... .max)
    return String(bits, radix: 16)
  }

  /// `todo-1`, `todo-2`, …: a fresh counter for each generator.
  static func incrementing() -> IDGenerator {
    let counter = Counter()
    return IDGenerator { "todo-\(counter.increment())" }
  }
}

/// A thread-safe counter.
///
/// `@unchecked Sendable`: `value` is only touched on `queue`, a serial queue.
final class Counter: @unchecked Sendable {
  private let queue = DispatchQueue(label: "TinyDependencyExample.Counter")
  private var value = 0

  func increment() -> Int {
    queue.sync {
      value += 1
      return value
    }
  }
}

enum IDGeneratorKey: DependencyKey {
  static let defaultValue = IDGenerator.random
  // A computed test value: every container builds its own counter, so tests don't share it.
  static var testValue: IDGenerator { .incrementing() }
}

extension DependencyValues {
  var idGenerator: IDGenerator {
    get { self[IDGeneratorKey.self] }
    set { self[IDGeneratorKey.self] = newValue }
  }
}

// MARK: - Logger

/// Where the store reports what it does.
protocol Logger: Sendable {
  func log(_ message: String)
}

/// Prints each message with the time.
struct ConsoleLogger: Logger {
  var clock: WallClock

  func log(_ message: String) {
    print("[\(clock.now())] \(message)")
  }
}

/// Keeps messages in memory so that tests can read them.
final class RecordingLogger: Logger, @unchecked Sendable {
  // `@unchecked Sendable`: `storage` is only touched on `queue`, a serial queue.
  private let queue = DispatchQueue(label: "TinyDependencyExample.RecordingLogger")
  private var storage: [String] = []

  func log(_ message: String) {
    queue.sync { storage.append(message) }
  }

  var messages: [String] { queue.sync { storage } }
}

enum LoggerKey: DependencyKey {
  // Built with the clock of the container it is built in: the graph shows LoggerKey -> WallClockKey.
  static var defaultValue: any Logger { ConsoleLogger(clock: DependencyValues.current.clock) }
  static var testValue: any Logger { RecordingLogger() }
}

extension DependencyValues {
  var logger: any Logger {
    get { self[LoggerKey.self] }
    set { self[LoggerKey.self] = newValue }
  }
}
