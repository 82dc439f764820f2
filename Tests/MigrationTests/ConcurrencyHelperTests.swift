import Foundation
import TestSubprocess
import Testing
import TinyDependency
import TinyDependencyConcurrency

@Suite("LockIsolated, ActorIsolated and UncheckedSendable keep swift-dependencies' spelling")
struct ConcurrencyHelperTests {
  @Test func lockIsolatedCollectsFromManyTasks() async {
    let events = LockIsolated<[Int]>([])
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<100 {
        group.addTask { events.withValue { $0.append(index) } }
      }
    }
    #expect(events.value.sorted() == Array(0..<100))
    #expect(events.count == 100)
    events.setValue([1])
    #expect(events.value == [1])
  }

  // MARK: - Nested use on one thread

  @Test func lockIsolatedNestedWithValueOnOneThreadFinishes() async {
    let box = LockIsolated(0)
    let inner = LockIsolated(-1)
    let finished = await finishes(within: 5) {
      box.withValue { outer in
        outer += 1
        // The inner call sees the value as it was before the outer closure began.
        inner.setValue(box.withValue { $0 })
      }
    }
    // A deadlocked box stays locked: reading it would hang this test too.
    guard finished else {
      Issue.record("nested use on one thread deadlocked")
      return
    }
    #expect(box.value == 1)
    #expect(inner.value == 0)
  }

  @Test func lockIsolatedReadsInsideWithValueOnOneThreadFinish() async {
    let events = LockIsolated<[String]>(["signed in"])
    let seen = LockIsolated<[Int]>([])
    let finished = await finishes(within: 5) {
      events.withValue { value in
        value.append("tapped")
        seen.setValue([events.value.count, events.count])
      }
    }
    // A deadlocked box stays locked: reading it would hang this test too.
    guard finished else {
      Issue.record("nested use on one thread deadlocked")
      return
    }
    #expect(seen.value == [1, 1])
    #expect(events.value == ["signed in", "tapped"])
  }

  @Test func lockIsolatedStillExcludesOtherThreads() async {
    let count = LockIsolated(0)
    // On threads of their own: a lock that deadlocks must hold neither the concurrency pool nor
    // Dispatch's workers, which the pool runs on under Linux.
    let finished = await finishes(within: 10) {
      let group = DispatchGroup()
      for _ in 0..<8 {
        group.enter()
        Thread.detachNewThread {
          for _ in 0..<1_000 { count.withValue { $0 += count.withValue { _ in 1 } } }
          group.leave()
        }
      }
      group.wait()
    }
    // A deadlocked box stays locked: reading it would hang this test too.
    guard finished else {
      Issue.record("nested use on one thread deadlocked")
      return
    }
    #expect(count.value == 8_000)
  }

  // MARK: - The other helpers

  @Test func actorIsolatedChangesOnItsActor() async {
    let isPlaying = ActorIsolated(false)
    await isPlaying.setValue(true)
    #expect(await isPlaying.value)
    let count = ActorIsolated(0)
    let doubled = await count.withValue { value -> Int in
      value += 21
      return value * 2
    }
    #expect(doubled == 42)
    #expect(await count.value == 21)
  }

  @Test func uncheckedSendableWrapsAValue() {
    final class Counter {
      var value = 0
    }
    var counter = UncheckedSendable(Counter())
    counter.value.value = 3
    let sent = counter
    #expect(sent.wrappedValue.value == 3)
    #expect(sent.value.value == 3)
    counter.wrappedValue = Counter()
    #expect(counter.value.value == 0)
  }
}
