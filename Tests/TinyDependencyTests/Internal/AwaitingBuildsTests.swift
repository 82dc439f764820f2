import Testing

@testable import TinyDependency

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
