import Dispatch
import Testing
import TinyDependency

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

@Suite("A scope waits for a sibling's build only where that wait can end and pays off")
struct SiblingWaitTests {
  /// A reads B and B reads A, each started in its own request scope: each thread waits for the
  /// build the other announced above, and the loop of waits stops with the cycle.
  @Test func aCycleOfKeysThroughSiblingScopesStillStops() async throws {
    let result = try await #require(
      processExitsWith: .failure,
      observing: [\.standardErrorContent]
    ) {
      let app = DependencyValues(context: .default)
      _ = onThreads(2) { index in
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

  /// Each request reads its own ID before its slow build: a sibling that sees that read in the
  /// build announced above doesn't wait for a value it can't use.
  @Test func siblingsThatReadTheirOwnRequestIDBuildSideBySide() {
    let app = DependencyValues(context: .default)
    let meter = app[OverlapMeterKey.self]
    let names = onThreads(6) { index in
      var request = app
      request.requestID = "r\(index)"
      return request[OverlappingEchoKey.self].name
    }
    #expect(Set(names) == Set((0..<6).map { "overlapping echo r\($0)" }))
    #expect(meter.most >= 2)
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

/// How many builds run at once, at most.
final class OverlapMeter: Sendable {
  private let counts = QueueLocked((now: 0, most: 0))

  func enter() {
    counts.withLock {
      $0.now += 1
      $0.most = max($0.most, $0.now)
    }
  }

  func leave() { counts.withLock { $0.now -= 1 } }

  var most: Int { counts.withLock { $0.most } }
}

enum OverlapMeterKey: DependencyKey {
  static var defaultValue: OverlapMeter { OverlapMeter() }
}

/// Reads the request ID first, then builds slowly, metering the builds that overlap.
enum OverlappingEchoKey: DependencyKey {
  static var defaultValue: Service {
    let values = DependencyValues.current
    let id = values.requestID
    let meter = values[OverlapMeterKey.self]
    meter.enter()
    usleep(30_000)
    meter.leave()
    return Service("overlapping echo \(id)")
  }
}
