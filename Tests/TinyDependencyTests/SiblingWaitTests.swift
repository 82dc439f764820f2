import Dispatch
import TestSubprocess
import Testing
import TinyDependency

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

@Suite("A scope waits for a sibling's build only where that wait can end and pays off")
struct SiblingWaitTests {
  #if compiler(>=6.2) && (os(macOS) || os(Linux))
    /// A reads B and B reads A, each started in its own request scope: each thread waits for the
    /// build the other announced above, and the loop of waits stops with the cycle.
    @Test(.oneExitTestAtATime)
    func aCycleOfKeysThroughSiblingScopesStillStops() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let app = DependencyValues(context: .default)
        _ = await onThreads(2) { index in
          var scope = app
          scope.requestID = "s\(index)"
          return index == 0 ? scope[SiblingCycleAKey.self] : scope[SiblingCycleBKey.self]
        }
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("SiblingCycleAKey -> SiblingCycleBKey -> SiblingCycleAKey")
          || message.contains("SiblingCycleBKey -> SiblingCycleAKey -> SiblingCycleBKey")
      )
      #expect(message.contains("different threads"))
    }
  #endif

  /// The first request's build reads its ID, then waits for the second request's build to
  /// start: the second, seeing that read in the build announced above, builds its own at once
  /// rather than wait for a value it can't use.
  @Test func aSiblingDoesNotWaitForABuildThatReadAKeyItChanged() async {
    let app = DependencyValues(context: .default)
    let handshake = app[HandshakeKey.self]
    // Each request on a thread of its own: the first blocks for the second, off the pool.
    let names = await onThreads(2) { index in
      if index == 1 && handshake.firstRead.wait(timeout: .now() + 10) != .success {
        return "the first build never read its ID"
      }
      var request = app
      request.requestID = index == 0 ? "first" : "second"
      return request[HandshakeEchoKey.self].name
    }
    #expect(names == ["first met second", "second"])
  }
}

// MARK: - Keys

/// Reads ``SiblingCycleBKey`` after a pause.
enum SiblingCycleAKey: DependencyKey {
  static var defaultValue: String {
    usleep(50_000)
    return "A(\(DependencyValues.current[SiblingCycleBKey.self]))"
  }
}

/// Reads ``SiblingCycleAKey`` after a pause.
enum SiblingCycleBKey: DependencyKey {
  static var defaultValue: String {
    usleep(50_000)
    return "B(\(DependencyValues.current[SiblingCycleAKey.self]))"
  }
}

/// Signals between the two builds of ``HandshakeEchoKey``.
final class Handshake: Sendable {
  let firstRead = DispatchSemaphore(value: 0)
  let secondStarted = DispatchSemaphore(value: 0)
}

enum HandshakeKey: DependencyKey {
  static var defaultValue: Handshake { Handshake() }
}

/// For the request "first": reads the request ID, then waits up to 5 seconds for another
/// request's build to start.
enum HandshakeEchoKey: DependencyKey {
  static var defaultValue: Service {
    let values = DependencyValues.current
    let id = values.requestID
    let handshake = values[HandshakeKey.self]
    guard id == "first" else {
      handshake.secondStarted.signal()
      return Service(id)
    }
    handshake.firstRead.signal()
    let met = handshake.secondStarted.wait(timeout: .now() + 5) == .success
    return Service(met ? "first met second" : "first built alone")
  }
}
