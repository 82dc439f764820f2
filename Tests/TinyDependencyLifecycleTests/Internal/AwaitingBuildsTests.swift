import Testing
import TinyDependency

@testable import TinyDependencyLifecycle

@Suite("A build is noted as awaiting another before that one starts")
struct AwaitingBuildsTests {
  /// With the edge in place from the inner build's first instruction on, a read of the outer key
  /// anywhere in it is reported as the cycle it is, never as a key read before it was prepared.
  @Test func theInnerBuildFindsTheOuterOneAwaitingItFromItsStart() async throws {
    for _ in 0..<200 {
      let values = DependencyValues(context: .default)
      try await values.prepare([EdgeProbeOuterKey.self])
      #expect(values[EdgeProbeOuterKey.self])
    }
  }

  @Test func anAwaitingBuildIsNoLongerAnEdgeOnceItsAwaitEnds() async throws {
    let values = DependencyValues(context: .default)
    try await values.prepare([EdgeProbeOuterKey.self])
    let outer = try #require(values[EdgeProbeSlotKey.self].withLock { $0 })
    #expect(AwaitingBuilds.deepest(from: outer) === outer)
  }

  /// A build awaiting two builds at once keeps an edge to each until its await of that one
  /// ends: the slow build still finds the outer one awaiting it after the quick one was built.
  @Test func aBuildAwaitingTwoBuildsKeepsAnEdgeToEachUntilItsAwaitEnds() async throws {
    let values = DependencyValues(context: .default)
    try await values.prepare([PairProbeOuterKey.self])
    #expect(values[PairProbeOuterKey.self])
    let outer = try #require(values[EdgeProbeSlotKey.self].withLock { $0 })
    #expect(AwaitingBuilds.deepest(from: outer) === outer)
  }

  /// Edges noted by hand: ending one await of a waiter leaves its others (a build awaited twice
  /// keeps an edge until both awaits end), through which a loop is still found, reported from
  /// the build made first.
  @Test func endingOneAwaitLeavesTheOthersOfTheSameWaiter() throws {
    let outer = unstartedBuild(of: PairProbeOuterKey.self)
    let slow = unstartedBuild(of: PairProbeSlowKey.self)
    let quick = unstartedBuild(of: PairProbeQuickKey.self)
    #expect(AwaitingBuilds.begin(outer, awaiting: slow) == nil)
    #expect(AwaitingBuilds.begin(outer, awaiting: quick) == nil)
    #expect(AwaitingBuilds.begin(outer, awaiting: quick) == nil)
    #expect(AwaitingBuilds.chain(to: quick, from: outer)?.count == 2)
    AwaitingBuilds.end(outer, awaiting: quick)
    #expect(AwaitingBuilds.chain(to: quick, from: outer)?.count == 2)
    AwaitingBuilds.end(outer, awaiting: quick)
    #expect(AwaitingBuilds.chain(to: quick, from: outer) == nil)
    #expect(AwaitingBuilds.deepest(from: outer) === slow)

    let loop = try #require(AwaitingBuilds.begin(slow, awaiting: outer))
    #expect(
      loop.map(\.key.name) == ["PairProbeOuterKey", "PairProbeSlowKey", "PairProbeOuterKey"]
    )
    AwaitingBuilds.end(outer, awaiting: slow)
    #expect(AwaitingBuilds.deepest(from: outer) === outer)
  }
}

/// Where, in one container, the outer build notes itself for the inner one.
enum EdgeProbeSlotKey: DependencyKey {
  static var defaultValue: Locked<PendingBuild?> { Locked(nil) }
}

/// Awaits ``EdgeProbeInnerKey``, and notes its own build for it to find.
enum EdgeProbeOuterKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Bool {
    DependencyValues.current[EdgeProbeSlotKey.self].withLock { $0 = PendingBuild.current }
    return try await DependencyValues.current.prepared(EdgeProbeInnerKey.self)
  }
}

/// Whether, at its first instruction, the outer build already awaits this one.
enum EdgeProbeInnerKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Bool {
    guard let inner = PendingBuild.current,
      let outer = DependencyValues.current[EdgeProbeSlotKey.self].withLock({ $0 })
    else { return false }
    return AwaitingBuilds.deepest(from: outer) === inner
  }
}

/// Awaits ``PairProbeSlowKey`` and ``PairProbeQuickKey`` together, and notes its own build for
/// them to find; true when both found it awaiting them.
enum PairProbeOuterKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Bool {
    DependencyValues.current[EdgeProbeSlotKey.self].withLock { $0 = PendingBuild.current }
    try await DependencyValues.current.prepare([PairProbeSlowKey.self, PairProbeQuickKey.self])
    let slow = try await DependencyValues.current.prepared(PairProbeSlowKey.self)
    let quick = try await DependencyValues.current.prepared(PairProbeQuickKey.self)
    return slow && quick
  }
}

/// Whether the outer build still awaits this one after ``PairProbeQuickKey`` was built.
enum PairProbeSlowKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Bool {
    try await Task.sleep(nanoseconds: 50_000_000)
    return isAwaitedByTheOuterBuild()
  }
}

/// Whether the outer build awaits this one, at its first instruction.
enum PairProbeQuickKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Bool { isAwaitedByTheOuterBuild() }
}

/// Whether the build running in this task is reached from the outer build noted in the slot.
private func isAwaitedByTheOuterBuild() -> Bool {
  guard let build = PendingBuild.current,
    let outer = DependencyValues.current[EdgeProbeSlotKey.self].withLock({ $0 })
  else { return false }
  return AwaitingBuilds.chain(to: build, from: outer) != nil
}

/// A build of `key` that is never started: for edges noted by hand.
private func unstartedBuild(of key: any AsyncDependencyKey.Type) -> PendingBuild {
  PendingBuild(
    key: AsyncKeyType(key),
    record: BuildFrame(key: key, in: DependencyValues(context: .default))
  )
}
