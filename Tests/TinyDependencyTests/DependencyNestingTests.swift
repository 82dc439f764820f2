import Foundation
import TestSubprocess
import Testing

@testable import TinyDependency

/// A chain of distinct keys, each built while the one before it builds: `Nest<Nest<…>>`, made
/// at run time by generic recursion, so no key repeats and no cycle is found.
enum NestBase {}

protocol NestLevel { static var level: Int { get } }
extension NestBase: NestLevel { static var level: Int { 0 } }

enum Nest<Inner: NestLevel>: DependencyKey, NestLevel {
  static var level: Int { Inner.level + 1 }
  static var defaultValue: Int {
    guard level < NestDepth.target else { return level }
    return DependencyValues.current[Nest<Nest<Inner>>.self]
  }
}

/// How deep the chain goes; set by each test before it reads.
enum NestDepth {
  nonisolated(unsafe) static var target = 0
}

// Serialized: its tests set the depth the chain builds to, one process-wide value.
@Suite("Builds nested deeper than any graph stop with where the chain starts", .serialized)
struct DependencyNestingTests {
  @Test func aChainAsDeepAsRealGraphsBuilds() {
    // A test of its own process state: the depth is only read by the key's builds below.
    NestDepth.target = 40
    #expect(DependencyValues(context: .default)[Nest<NestBase>.self] == 40)
  }

  /// Issue 45, item 10: a valid graph of a thousand distinct builds nested inside one another
  /// builds on an 8 MiB stack; only a real overflow stops.
  @Test func aThousandNestedDistinctBuildsBuildOnAnEightMebibyteStack() async {
    let built = await onThread(stackSize: 8 << 20) {
      NestDepth.target = 1_000
      return DependencyValues(context: .default)[Nest<NestBase>.self]
    }
    #expect(built == 1_000)
  }

  /// Runs `body` on a new thread with a stack of `stackSize` bytes; the test's task waits
  /// without holding a thread of the concurrency pool.
  private func onThread<T: Sendable>(
    stackSize: Int,
    _ body: @escaping @Sendable () -> T
  ) async -> T {
    await withCheckedContinuation { continuation in
      let thread = Thread { continuation.resume(returning: body()) }
      thread.stackSize = stackSize
      thread.start()
    }
  }

  #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test(.oneExitTestAtATime)
    func aChainDeeperThanTheLimitStopsWithItsHead() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        NestDepth.target = 10_000
        _ = DependencyValues(context: .default)[Nest<NestBase>.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("builds nested inside one another on this thread"))
      #expect(message.contains("have nearly used up its stack"))
      #expect(message.contains("Nest<NestBase> -> Nest<Nest<NestBase>>"))
      #expect(message.contains("No key repeats"))
    }
  #endif
}
