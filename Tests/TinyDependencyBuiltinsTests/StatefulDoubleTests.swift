import Dispatch
import Foundation
import Testing
import TinyDependency
import TinyDependencyBuiltins
import TinyDependencyTesting

/// Runs `body` on a Dispatch queue, as a framework callback would, and returns its result.
func onDispatchQueue<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in
    DispatchQueue.global().async { continuation.resume(returning: body()) }
  }
}

/// Stateful test doubles keep their state in the value: an object made in a test and called
/// from a detached task or a callback continues the test's sequence.
@Suite("Stateful test doubles keep their state")
struct StatefulDoubleTests {
  @Test(.dependencies { $0.uuid = .incrementing })
  func incrementingContinuesInDetachedTasksAndCallbacks() async {
    let maker = RecordMaker()
    let first = maker.make()
    let second = await Task.detached { maker.make() }.value
    let third = await onDispatchQueue { maker.make() }
    #expect([first, second, third] == [UUID(0), UUID(1), UUID(2)])
  }

  @Test(.dependency(\.withRandomNumberGenerator, .seeded(42)))
  func seededContinuesInDetachedTasksAndCallbacks() async {
    let dice = Dice()
    let first = dice.roll()
    let second = await Task.detached { dice.roll() }.value
    let third = await onDispatchQueue { dice.roll() }
    #expect([first, second, third] == Array(rollsOfSeed42.prefix(3)))
  }

  @Test func oneValueSetOnTwoContainersSharesOneSequence() {
    let generator = UUIDGenerator.incrementing
    var first = DependencyValues(context: .test)
    first.uuid = generator
    var second = DependencyValues(context: .test)
    second.uuid = generator
    #expect(first.uuid() == UUID(0))
    #expect(second.uuid() == UUID(1))
  }
}
