import Dispatch
import TestSubprocess
import Testing

@testable import TinyDependency

extension Tag {
  /// Heavier concurrency tests; CI also runs them under ThreadSanitizer and AddressSanitizer.
  @Tag static var stress: Self
}

@Suite("Stress: many tasks, threads and scopes at once", .tags(.stress))
struct StressTests {
  // MARK: - Scopes

  @Test func tenThousandTasksEnterAndLeaveNestedScopesWhileReading() async {
    let mismatches = await withTaskGroup(of: Int.self) { group in
      for index in 0..<10_000 {
        group.addTask {
          withDependencies {
            $0.greeting = "outer \(index)"
          } operation: {
            withDependencies {
              $0.leaf = "leaf \(index)"
            } operation: {
              let values = DependencyValues.current
              var wrong = 0
              if values.greeting != "outer \(index)" { wrong += 1 }
              if values.leaf != "leaf \(index)" { wrong += 1 }
              if values.right != "right(leaf \(index))" { wrong += 1 }
              return wrong
            } + (DependencyValues.current.leaf == "leaf" ? 0 : 1)
          }
        }
      }
      return await group.reduce(0, +)
    }
    #expect(mismatches == 0)
    #expect(DependencyValues.current.greeting == "hello")
  }

  // MARK: - Building

  @Test func concurrentFirstReadsOfManyKeysBuildEachExactlyOnce() async {
    let keys = StressKeys.all
    for round in 0..<3 {
      let values = DependencyValues(context: .test)
      let counter = values[StressCounterKey.self]
      let seen = await onThreads(8) { thread in
        var identities: [ObjectIdentifier] = []
        for offset in keys.indices {
          let index = (offset + thread * 7 + round) % keys.count
          let key = keys[thread.isMultiple(of: 2) ? index : keys.count - 1 - index]
          identities.append(ObjectIdentifier(StressKeys.read(key.type, from: values)))
        }
        return Set(identities).count
      }
      #expect(seen.allSatisfy { $0 == keys.count })
      #expect(counter.counts.count == keys.count)
      #expect(counter.counts.values.allSatisfy { $0 == 1 }, "round \(round): \(counter.counts)")
    }
  }

  @Test func buildsThatBlockOnOtherThreadsResolvingOtherKeysFinish() async {
    let finished = await finishes(within: 20) {
      for _ in 0..<50 {
        let values = DependencyValues(context: .default)
        _ = onThreads(4) { _ in values[CrossThreadKey.self].name }
      }
    }
    #expect(finished)
  }

  // MARK: - Lifetimes

  @Test func valueWhoseDeinitReadsADependencyIsReleasedWithItsContainer() {
    let log = DeinitLog()
    for index in 0..<200 {
      var values = DependencyValues(context: .test)
      values[DeinitLogKey.self] = log
      values.greeting = "container \(index)"
      _ = values[DeinitReaderKey.self]
    }
    #expect(log.count == 200)
    #expect(log.readsDuringDeinit.allSatisfy { $0.hasPrefix("container ") || $0 == "hello" })
  }

  @Test func valuesBuiltInAScopeAreReleasedWhenNothingHoldsTheScope() {
    weak var built: Service?
    weak var scopeStorage: DependencyStorage?
    withDependencies {
      $0.greeting = "short-lived"
    } operation: {
      let service = DependencyValues.current.greeter
      built = service
      scopeStorage = DependencyValues.current.storage
      #expect(service.name == "greeter says short-lived")
    }
    #expect(scopeStorage == nil)
    #expect(built == nil)
  }

  @Test func objectsMadeInScopesKeepThemOnlyAsLongAsTheyLive() {
    weak var scopeStorage: DependencyStorage?
    var greeter: DependencyTests.Greeter? = withDependencies {
      $0.greeting = "kept"
    } operation: {
      scopeStorage = DependencyValues.current.storage
      return DependencyTests.Greeter()
    }
    #expect(greeter?.greeting == "kept")
    #expect(scopeStorage != nil)
    greeter = nil
    #expect(scopeStorage == nil)
  }

  @Test func copiesOfAWrapperReadOnManyThreadsWhileOthersAreDropped() async {
    // The wrapper reads its capture unretained: only its copies keep the capture alive.
    weak var scopeStorage: DependencyStorage?
    var made: DependencyTests.Greeter? = withDependencies {
      $0.greeting = "made"
    } operation: {
      scopeStorage = DependencyValues.current.storage
      return DependencyTests.Greeter()
    }
    var copies = (0..<8).map { _ in made! }
    made = nil
    #expect(await Self.readOnThreads(copies) == Array(repeating: 0, count: 8))
    #expect(scopeStorage != nil)
    copies = []
    #expect(scopeStorage == nil)
  }

  /// Reads each copy on a thread of its own, in a scope of that thread's, 2,000 times; half the
  /// threads drop their copy midway. Returns the wrong reads per thread.
  private static func readOnThreads(_ copies: [DependencyTests.Greeter]) async -> [Int] {
    await onThreads(copies.count) { thread in
      var copy: DependencyTests.Greeter? = copies[thread]
      var mismatches = 0
      for round in 0..<2_000 {
        withDependencies {
          $0.leaf = "leaf \(thread)"
        } operation: {
          guard let greeter = copy else { return }
          if greeter.greeting != "made" { mismatches += 1 }
          if greeter.leaf != "leaf \(thread)" { mismatches += 1 }
        }
        if round == 1_000 && thread.isMultiple(of: 2) { copy = nil }
      }
      return mismatches
    }
  }

  // MARK: - Memory of server-shaped loops

  // AddressSanitizer keeps freed memory in quarantine, so resident memory is only measured
  // without it; the loops still run under ThreadSanitizer.
  #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test(.oneExitTestAtATime, .enabled(if: !runsUnderAddressSanitizer))
    func requestScopesReadThroughAWorkerScopeLeaveMemoryFlat() async {
      await #expect(processExitsWith: .success) {
        let app = DependencyValues(context: .default)
        var worker = app
        worker.greeting = "worker"
        withDependencies(worker) {
          let growth = residentGrowth(iterations: 100_000) { index in
            var request = app
            request.requestID = "\(index)"
            precondition(request[RequestHandlerKey.self].requestID == "\(index)")
          }
          precondition(growth < 16 << 20, "grew by \(growth >> 20) MiB")
        }
      }
    }

    @Test(.oneExitTestAtATime, .enabled(if: !runsUnderAddressSanitizer))
    func oneContainerVariableSetAndBoundAgainLeavesMemoryFlat() async {
      await #expect(processExitsWith: .success) {
        var values = DependencyValues(context: .default)
        let growth = residentGrowth(iterations: 100_000) { index in
          values.requestID = "\(index)"
          precondition(
            withDependencies(values) { DependencyValues.current.requestID } == "\(index)"
          )
        }
        precondition(growth < 16 << 20, "grew by \(growth >> 20) MiB")
      }
    }
  #endif
}

// MARK: - Fixtures

/// Counts builds per key; one per container.
///
/// `@unchecked Sendable`: `storage` is only touched on `queue`, a serial queue.
final class StressCounter: @unchecked Sendable {
  private let queue = DispatchQueue(label: "StressCounter")
  private var storage: [String: Int] = [:]

  func built(_ name: String) { queue.sync { storage[name, default: 0] += 1 } }
  var counts: [String: Int] { queue.sync { storage } }
}

enum StressCounterKey: DependencyKey {
  static var defaultValue: StressCounter { StressCounter() }
}

/// 64 distinct keys, each slow to build and counted.
enum StressKeys {
  enum Tag<Number> {}
  enum Bit0 {}
  enum Bit1 {}

  enum Key<T>: DependencyKey {
    static var defaultValue: Service {
      DependencyValues.current[StressCounterKey.self].built("\(T.self)")
      usleep(200)
      return Service("\(T.self)")
    }
  }

  static let all: [KeyType] = (0..<64).map { number in
    func tag<Previous>(_ previous: Previous.Type, _ bit: Int) -> Any.Type {
      bit == 1 ? Tag<(Previous, Bit1)>.self : Tag<(Previous, Bit0)>.self
    }
    var type: Any.Type = Bit0.self
    for bit in 0..<6 { type = tag(type, (number >> bit) & 1) }
    func key<T>(_ type: T.Type) -> KeyType { KeyType(Key<T>.self) }
    return key(type)
  }

  static func read(_ key: any DependencyKey.Type, from values: DependencyValues) -> AnyObject {
    func open<K: DependencyKey>(_ key: K.Type) -> AnyObject { values[key] as AnyObject }
    return open(key)
  }
}

/// Collects what values read in their deinit.
///
/// `@unchecked Sendable`: `reads` is only touched on `queue`, a serial queue.
final class DeinitLog: @unchecked Sendable {
  private let queue = DispatchQueue(label: "DeinitLog")
  private var reads: [String] = []

  func record(_ read: String) { queue.sync { reads.append(read) } }
  var count: Int { queue.sync { reads.count } }
  var readsDuringDeinit: [String] { queue.sync { reads } }
}

enum DeinitLogKey: DependencyKey {
  static var defaultValue: DeinitLog { DeinitLog() }
}

/// A value that reads dependencies, including through its own wrapper, while it is released.
final class DeinitReader: @unchecked Sendable {
  // `@unchecked Sendable`: the wrapper's storage is a `var`, but nothing writes it after init.
  @Dependency(\.greeting) var greeting
  let log: DeinitLog

  init(log: DeinitLog) { self.log = log }

  deinit {
    _ = DependencyValues.current.greeting
    log.record(greeting)
  }
}

enum DeinitReaderKey: DependencyKey {
  static var defaultValue: DeinitReader {
    DeinitReader(log: DependencyValues.current[DeinitLogKey.self])
  }
}

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif
