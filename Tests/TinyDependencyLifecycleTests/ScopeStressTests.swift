import Dispatch
import TestSubprocess
import Testing
import TinyDependency
import TinyDependencyLifecycle

/// Issue 35, item 7: instances begun and ended over and over leave memory flat, and nothing of
/// an ended instance stays reachable.
@Suite("Stress: a million scope instances begun, read and ended", .tags(.stress))
struct ScopeStressTests {
  @Test func nothingOfAnEndedInstanceStaysReachable() async throws {
    weak var watched: Watched?
    weak var inFlow: Watched?
    do {
      let session = DependencyValues(context: .default).beginScope(UserSession.self)
      let flow = session.values.beginScope(Flow.self)
      watched = session.values[WatchedKey.self]
      inFlow = flow.values[WatchedKey.self]
      try await session.end()
    }
    #expect(watched == nil)
    #expect(inFlow == nil)
  }

  #if compiler(>=6.2) && (os(macOS) || os(Linux))
    /// A million rounds in release builds, 20,000 in debug ones; the growth of the peak
    /// resident memory is printed, and must stay under 64 MiB.
    @Test(.oneExitTestAtATime, .enabled(if: !runsUnderAddressSanitizer))
    func beginReadTenKeysAndEndLeavesMemoryFlat() async throws {
      let result = try await #require(
        processExitsWith: .success,
        observing: [\.standardOutputContent]
      ) {
        let rounds = _isDebugAssertConfiguration() ? 20_000 : 1_000_000
        let app = DependencyValues(context: .default)
        func run(_ count: Int) async {
          for _ in 0..<count {
            let session = app.beginScope(UserSession.self)
            precondition(readTenScopedKeys(session.values) == 45)
            try! await session.end()
          }
        }
        await run(rounds / 10)
        let before = peakResidentBytes()
        let started = DispatchTime.now().uptimeNanoseconds
        await run(rounds)
        let growth = peakResidentBytes() - before
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        print(
          "scope rounds: \(rounds) begin / read 10 scoped keys / end in \(seconds) s, "
            + "peak resident memory grew by \(growth >> 10) KiB"
        )
        precondition(growth < 64 << 20, "grew by \(growth >> 20) MiB")
      }
      let output = String(decoding: result.standardOutputContent, as: UTF8.self)
      print(output)
      #expect(output.contains("scope rounds"))
    }
  #endif
}
