import Dispatch
import Testing

@testable import TinyDependency

@Suite("Locked: state reachable only with its lock held")
struct LockedTests {
  @Test func withLockChangesTheStateAndReturnsTheResult() {
    let locked = Locked([1, 2])
    let count = locked.withLock { state in
      state.append(3)
      return state.count
    }
    #expect(count == 3)
    #expect(locked.withLock { $0 } == [1, 2, 3])
  }

  @Test func waitReturnsFalseAfterItsTimeoutWhenNothingChanges() {
    let locked = Locked(false)
    let started = SystemInterface.monotonicSeconds()
    #expect(!locked.wait(while: { !$0 }, timeout: 0.1))
    #expect(SystemInterface.monotonicSeconds() - started >= 0.1)
  }

  @Test func waitReturnsTrueAtOnceWhenThePredicateDoesNotHold() {
    let locked = Locked(true)
    #expect(locked.wait(while: { !$0 }, timeout: 60))
  }

  @Test func broadcastWakesAWaiterAfterTheChange() {
    let locked = Locked(false)
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
      locked.withLock { $0 = true }
      locked.broadcast()
    }
    #expect(locked.wait(while: { !$0 }, timeout: 30))
  }
}
