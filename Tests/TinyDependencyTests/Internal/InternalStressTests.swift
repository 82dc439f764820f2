import Dispatch
import Testing

@testable import TinyDependency

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// The internal parts under concurrent use; CI runs these under ThreadSanitizer too.
@Suite("Internal parts under concurrent use", .tags(.stress))
struct InternalStressTests {
  @Test func lockedCountsEveryIncrementFromManyThreads() async {
    let locked = Locked(0)
    _ = await onThreads(8) { _ in
      for _ in 0..<10_000 { locked.withLock { $0 += 1 } }
      return 0
    }
    #expect(locked.withLock { $0 } == 80_000)
  }

  @Test func aFrameKeepsEveryRecordFromManyThreads() async {
    // A build that hands its reads to other threads: each records inputs of its own.
    final class Marker: Sendable {}
    let markers = (0..<8).map { _ in (0..<500).map { _ in Marker() } }
    let frame = BuildFrame(keyType: WaitLoopXKey.self, context: .test, parent: nil, observer: nil)
    _ = await onThreads(8) { thread in
      for marker in markers[thread] {
        frame.record(WaitLoopYKey.self, inputs: [ObjectIdentifier(marker)])
      }
      return 0
    }
    let trace = frame.finish()
    #expect(trace.inputs.count == 8 * 500 + 1)
    #expect(trace.reads.map(\.name) == ["WaitLoopYKey"])
    // A record after the build finished changes nothing.
    frame.record(WaitLoopYKey.self, inputs: [ObjectIdentifier(Marker())])
    #expect(frame.isActive == false)
    withExtendedLifetime(markers) {}
  }

  @Test func waitersAllWakeWhenTheStateReachesTheirTarget() async {
    let locked = Locked(0)
    let woken = await onThreads(6) { thread in
      if thread == 0 {
        for _ in 0..<5 {
          usleep(10_000)
          locked.withLock { $0 += 1 }
          locked.broadcast()
        }
        return true
      }
      return locked.wait(while: { $0 < thread }, timeout: 30)
    }
    #expect(woken == Array(repeating: true, count: 6))
  }

  @Test func waitsOnTwoThreadsForEachOthersBuildFormALoop() {
    let first = BlockedThreadsScenario()
    #expect(first.loopKeys() == ["WaitLoopYKey", "WaitLoopXKey", "WaitLoopYKey"])
  }

  @Test func aWaitThatNoOtherThreadClosesIsNoLoop() {
    let other = DispatchSemaphore(value: 0)
    let frames = ResultSlots<BuildFrame>(1)
    onNewThread {
      frames[0] = BuildFrame(keyType: WaitLoopYKey.self, context: .test, parent: nil, observer: nil)
      other.signal()
    }
    other.wait()
    let mine = BuildFrame(keyType: WaitLoopXKey.self, context: .test, parent: nil, observer: nil)
    #expect(BlockedThreads.loop(from: [mine], waitingOn: frames[0]!) == nil)
  }
}

enum WaitLoopXKey: DependencyKey {
  static let defaultValue = 0
}

enum WaitLoopYKey: DependencyKey {
  static let defaultValue = 0
}

/// Thread A builds X and waits for Y's build; this thread builds Y and asks whether waiting for
/// X closes a loop.
struct BlockedThreadsScenario {
  func loopKeys() -> [String]? {
    let registered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let mine = BuildFrame(keyType: WaitLoopYKey.self, context: .test, parent: nil, observer: nil)
    let theirs = ResultSlots<BuildFrame>(1)
    onNewThread {
      let frame = BuildFrame(keyType: WaitLoopXKey.self, context: .test, parent: nil, observer: nil)
      theirs[0] = frame
      frame.runAsInnermost(on: ThreadBuilds.current) {
        BlockedThreads.register(frame, waitingOn: mine)
        registered.signal()
        release.wait()
        BlockedThreads.unregister()
      }
    }
    registered.wait()
    defer { release.signal() }
    guard let loop = BlockedThreads.loop(from: [mine], waitingOn: theirs[0]!) else { return nil }
    return (loop.path.map(\.keyType) + loop.continuation).map { _typeName($0, qualified: false) }
  }
}
