import Testing

@testable import TinyDependency

@Suite("The async side of a container goes away with the container")
struct LifecycleRegistryTests {
  /// Prepares `PoolKey` in a container of its own and returns the container's serial.
  private func prepareInThrowawayContainer() async throws -> UInt64 {
    let (values, _) = asyncContainer()
    try await values.prepare([PoolKey.self])
    #expect(Lifecycle.isRegistered(values.storage.serial))
    return values.storage.serial
  }

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func aPreparedContainerThatGoesAwayLeavesNoLifecycle() async throws {
    var serials: [UInt64] = []
    for _ in 0..<50 { serials.append(try await prepareInThrowawayContainer()) }
    // The builds' tasks may hold the container a moment after `prepare` returns.
    let deadline = ContinuousClock.now + .seconds(5)
    while serials.contains(where: Lifecycle.isRegistered), ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(serials.filter(Lifecycle.isRegistered).isEmpty)
  }

  @Test func aContainerThatNeverPreparesHasNoLifecycle() async throws {
    let (values, _) = asyncContainer()
    _ = values[PrefixKey.self]
    #expect(!Lifecycle.isRegistered(values.storage.serial))
  }

  @Test func aLiveContainerKeepsItsLifecycleAndItsShutdown() async throws {
    let (values, _) = asyncContainer()
    try await values.prepare([PoolKey.self])
    let serial = values.storage.serial
    _ = try await values.shutdown()
    #expect(Lifecycle.isRegistered(serial))
    await #expect(throws: (any Error).self) { try await values.prepare([PoolKey.self]) }
  }
}
