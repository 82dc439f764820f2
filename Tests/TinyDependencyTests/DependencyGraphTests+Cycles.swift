import Dispatch
import Foundation
import TestSubprocess
import Testing

@testable import TinyDependency
@testable import TinyDependencyGraph

@Suite("Dependency graphs list every elementary cycle, up to a limit")
struct DependencyGraphCycleTests {
  // MARK: - Cycles

  @Test func traceRecordsACycleInsteadOfStopping() {
    let graph = DependencyGraph.trace([FeedKey.self, AppKey.self])
    #expect(graph.cycles.map { $0.map(\.name) } == [["ClientKey", "SessionKey", "FeedKey"]])
    #expect(graph.text.contains("Cycles:\n  ClientKey -> SessionKey -> FeedKey -> ClientKey\n"))
    #expect(graph.edges.contains { $0.description == "AppKey -> StoreKey" })
  }

  @Test func testOnlyKeysAreNamedByTheUsersKeyInNodesAndCycles() {
    let graph = DependencyGraph.trace([TestOnlyReaderKey.self, CycleTestOnlyReaderKey.self])
    let names = graph.nodes.map(\.name)
    #expect(names.contains("TestOnlyLeaf"))
    #expect(names.contains("CycleTestOnlyA"))
    #expect(!names.contains { $0.contains("TestOnlyKey<") })
    #expect(graph.cycles.map { $0.map(\.name) } == [["CycleTestOnlyA", "CycleTestOnlyB"]])
    #expect(graph.text.contains("CycleTestOnlyA -> CycleTestOnlyB -> CycleTestOnlyA"))
    #expect(!graph.text.contains("TestOnlyKey<"))
    #expect(!graph.nodes.contains { $0.isMainActorKey })
  }

  @Test func aCycleMetInConfigureIsRecordedInsteadOfHanging() async {
    final class Result: @unchecked Sendable { var graph: DependencyGraph? }
    let result = Result()
    let finished = await finishes(within: 120) {
      result.graph = DependencyGraph.trace([AppKey.self]) { _ = $0[FeedKey.self] }
    }
    #expect(finished, "trace returns when configure reads a key that is part of a cycle")
    #expect(
      result.graph?.cycles.map { $0.map(\.name) } == [["ClientKey", "SessionKey", "FeedKey"]]
    )
    #expect(result.graph?.nodes.contains { $0.name == "AppKey" } == true)
  }

  @Test func anUnsetInputMetInConfigureIsRecordedInsteadOfHanging() async {
    final class Result: @unchecked Sendable { var graph: DependencyGraph? }
    let result = Result()
    let finished = await finishes(within: 120) {
      result.graph = DependencyGraph.trace([AppKey.self]) { _ = $0[ServerKey.self] }
    }
    #expect(finished, "trace returns when configure reads a key that reads an unset input")
    #expect(result.graph?.missingInputs.map(\.name) == ["BaseURLKey"])
  }

  @Test func everyElementaryCycleOnceFromItsSmallestNode() {
    let a = KeyType(CycleA.self)
    let b = KeyType(CycleB.self)
    let c = KeyType(CycleC.self)
    let graph = DependencyGraph(
      context: .test,
      builds: [(a, [b]), (b, [a, c]), (c, [c, a])]
    )
    #expect(
      graph.cycles.map { $0.map(\.name) } == [
        ["CycleA", "CycleB"], ["CycleA", "CycleB", "CycleC"], ["CycleC"],
      ]
    )
  }

  @Test func aLadderWithoutCyclesIsCheckedInLinearTime() async {
    // Each key reads the next two, names in edge order: a walk of every simple path would
    // take longer than the age of the universe at 90 keys; the deadline is generous.
    let keys = numberedKeys(90).map(KeyType.init)
    let builds = keys.indices.map { index in
      (key: keys[index], reads: Array(keys[(index + 1)..<min(index + 3, keys.count)]))
    }
    let graph = DependencyGraph(context: .test, builds: builds)
    #expect(await finishes(within: 60) { _ = graph.text })
    #expect(graph.cycles.isEmpty)
    #expect(!graph.hasMoreCycles)
    #expect(graph.text.hasSuffix("Cycles: none\n"))
  }

  @Test func aRingOfTenThousandKeysIsOneCycleOnASecondaryThreadsStack() async {
    let keys = numberedKeys(10_000).map(KeyType.init)
    let builds = keys.indices.map { (key: keys[$0], reads: [keys[($0 + 1) % keys.count]]) }
    let graph = DependencyGraph(context: .test, builds: builds)
    /// `@unchecked Sendable`: `stored` is only touched with `lock` held (a lock, not the
    /// semaphore, is what ThreadSanitizer sees order the write before the read).
    final class Found: @unchecked Sendable {
      private let lock = NSLock()
      private var stored: [[DependencyGraph.Node]] = []
      var cycles: [[DependencyGraph.Node]] {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
      }
    }
    let found = Found()
    let searched = await finishes(within: 60) {
      let done = DispatchSemaphore(value: 0)
      TraceThreads.runOnNewThread {
        found.cycles = graph.cycles
        done.signal()
      }
      done.wait()
    }
    #expect(searched)
    let cycles = found.cycles
    #expect(cycles.count == 1)
    #expect(cycles.first?.count == 10_000)
    #expect(cycles.first?.first == graph.nodes.first)
  }

  @Test func aGraphWithMoreCyclesThanTheLimitListsTheLimitAndSaysSo() {
    // Seven keys that all read each other: 2,365 elementary cycles.
    let keys = numberedKeys(7).map(KeyType.init)
    let builds = keys.map { key in (key: key, reads: keys.filter { $0 != key }) }
    let graph = DependencyGraph(context: .test, builds: builds)
    #expect(graph.cycles.count == DependencyGraph.cycleLimit)
    #expect(graph.hasMoreCycles)
    #expect(graph.cycles.allSatisfy { $0.first == graph.nodes.first })
    #expect(
      graph.text.hasSuffix(
        "  … more cycles not listed: only the first \(DependencyGraph.cycleLimit) are shown\n"
      )
    )
  }

  @Test(arguments: 0..<40)
  func cyclesAreEveryElementaryCycleOfASmallRandomGraph(seed: Int) {
    var generator = SplitMix(seed: UInt64(seed))
    let keys = numberedKeys(6).map(KeyType.init)
    let builds = keys.map { key in
      (key: key, reads: keys.filter { _ in generator.next() % 3 == 0 })
    }
    let graph = DependencyGraph(context: .test, builds: builds)
    #expect(graph.cycles == Self.everySimpleCycle(of: graph))
  }

  /// The elementary cycles found by walking every simple path: slow, obviously right.
  static func everySimpleCycle(of graph: DependencyGraph) -> [[DependencyGraph.Node]] {
    var found: [[DependencyGraph.Node]] = []
    for (index, start) in graph.nodes.enumerated() {
      let allowed = Set(graph.nodes[index...])
      func visit(_ path: [DependencyGraph.Node]) {
        for next in graph.dependencies(of: path.last!) where allowed.contains(next) {
          if next == start {
            found.append(path)
          } else if !path.contains(next) {
            visit(path + [next])
          }
        }
      }
      visit([start])
    }
    return found.sorted { $0.lexicographicallyPrecedes($1) }
  }
}

// MARK: - Fixtures

enum CycleA: DependencyKey { static let defaultValue = 0 }
enum CycleB: DependencyKey { static let defaultValue = 0 }
enum CycleC: DependencyKey { static let defaultValue = 0 }

/// A small, seeded random number generator, so failures can be replayed.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}
