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
