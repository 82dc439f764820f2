import Testing
import TinyDependency
import TinyDependencyBuiltins

@testable import TinyDependencyValidation

/// Discovery on systems older than `Clock` (macOS 12, iOS 15): Linux always has clocks, so the
/// tests pass the answer of `#available` in.
@Suite("Key discovery leaves out the clock keys on systems without clocks")
struct KeyDiscoveryAvailabilityTests {
  static func names(systemHasClocks: Bool) throws -> [String] {
    try #require(KeyDiscovery.run(systemHasClocks: systemHasClocks)).keys.map(\.name)
  }

  @Test func withClocksTheClockKeysAreDiscovered() throws {
    let names = try Self.names(systemHasClocks: true)
    #expect(names.contains("TinyDependencyBuiltins.ContinuousClockKey"))
    #expect(names.contains("TinyDependencyBuiltins.SuspendingClockKey"))
  }

  @Test func withoutClocksOnlyTheClockKeysAreLeftOut() throws {
    let with = try Self.names(systemHasClocks: true)
    let without = try Self.names(systemHasClocks: false)
    #expect(
      Set(with).subtracting(without)
        == [
          "TinyDependencyBuiltins.ContinuousClockKey", "TinyDependencyBuiltins.SuspendingClockKey",
        ]
    )
    #expect(Set(without).isSubset(of: with))
    #expect(without.contains("TinyDependencyBuiltins.UUIDGeneratorKey"))
  }

  @Test func thisSystemHasClocks() {
    #expect(KeyDiscovery.systemHasClocks)
  }
}
