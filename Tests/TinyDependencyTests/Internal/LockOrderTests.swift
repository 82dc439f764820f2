import Dispatch
import TestSubprocess
import Testing

@testable import TinyDependency

/// The core's lock order (DESIGN.md, "Lock order"), tried the other way round from two threads:
/// a spin lock is innermost, so work that takes other locks (a scope instance's end walking
/// storages) runs after it is released, and a thread holding a storage's lock never waits for it.
@Suite("Lock order: spin locks are innermost, and a scope's end works outside its lock")
struct LockOrderTests {
  /// An outcome whose making takes the instance's lock again, and a storage's lock, as the
  /// lifecycle's does: with the outcome made inside the spin lock, this never finishes.
  @Test func endingAnInstanceMakesItsOutcomeWithItsLockReleased() async {
    let finished = await finishes(within: 10) {
      let instance = DependencyValues().beginScope(Session.self).values
      var inProgress = false
      let ending = instance.endScopeInstance(inProgress: &inProgress) { children, _ in
        // Takes the instance's spin lock, then the storage's lock: the inverse of what the end
        // holds while it marks the instance.
        let ended = instance.storage.instance?.isEnded ?? false
        _ = instance.ownBuiltValues
        return Outcome(ended: ended, children: children.count)
      }
      #expect(ending?.ended == true)
      #expect(ending?.children == 0)
      #expect(!inProgress)
    }
    #expect(finished, "the outcome was made inside the instance's spin lock")
  }

  /// Two threads take the instance's lock and a storage's lock in opposite orders, a thousand
  /// times: one ends instances whose outcome reads their values, the other begins children in
  /// them and reads their scoped values. Nothing waits for the other.
  @Test func endsAndReadsInOppositeOrdersFromTwoThreadsFinish() async {
    let finished = await finishes(within: 30) {
      for _ in 0..<1_000 {
        let session = DependencyValues().beginScope(Session.self).values
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
          var inProgress = false
          _ = session.endScopeInstance(inProgress: &inProgress) { _, _ in
            _ = session.ownBuiltValues
            _ = session.storage.instance?.isEnded
            return Outcome(ended: true, children: 0)
          }
        }
        DispatchQueue.global().async(group: group) {
          _ = session.storage.instance?.isEnded
          _ = session.ownBuiltValues
        }
        group.wait()
      }
    }
    #expect(finished, "two threads taking the locks in opposite orders did not finish")
  }
}

private final class Outcome: Sendable {
  let ended: Bool
  let children: Int

  init(ended: Bool, children: Int) { (self.ended, self.children) = (ended, children) }
}
