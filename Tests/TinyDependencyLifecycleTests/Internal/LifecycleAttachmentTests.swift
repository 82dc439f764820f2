import Testing
import TinyDependency

@testable import TinyDependencyLifecycle

@Suite("The async side of a container goes away with the container")
struct LifecycleAttachmentTests {
  /// Prepares `PoolKey` in a container of its own and returns its lifecycle, weakly.
  private func prepareInThrowawayContainer() async throws -> WeakLifecycle {
    let (values, _) = asyncContainer()
    try await values.prepare([PoolKey.self])
    let lifecycle = try #require(Lifecycle.existing(values))
    return WeakLifecycle(value: lifecycle)
  }

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func aPreparedContainerThatGoesAwayLeavesNoLifecycle() async throws {
    var lifecycles: [WeakLifecycle] = []
    for _ in 0..<50 { lifecycles.append(try await prepareInThrowawayContainer()) }
    // The builds' tasks may hold the container a moment after `prepare` returns.
    let deadline = ContinuousClock.now + .seconds(5)
    while lifecycles.contains(where: { $0.value != nil }), ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(lifecycles.filter { $0.value != nil }.isEmpty)
  }

  @Test func aContainerThatNeverPreparesHasNoLifecycle() async throws {
    let (values, _) = asyncContainer()
    _ = values[PrefixKey.self]
    #expect(Lifecycle.existing(values) == nil)
  }

  @Test func aLiveContainerKeepsItsLifecycleAndItsShutdown() async throws {
    let (values, _) = asyncContainer()
    try await values.prepare([PoolKey.self])
    _ = try await values.shutdown()
    #expect(Lifecycle.existing(values) != nil)
    await #expect(throws: (any Error).self) { try await values.prepare([PoolKey.self]) }
  }
}

/// A lifecycle held weakly, to see when it goes away.
struct WeakLifecycle {
  weak var value: Lifecycle?
}
