import Testing
import TinyDependency
import TinyDependencyBuiltins
import TinyDependencyTesting

/// Rolls dice with the `withRandomNumberGenerator` dependency.
struct Dice {
  @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator

  func roll() -> Int {
    withRandomNumberGenerator { generator in Int.random(in: 1...6, using: &generator) }
  }
}

/// The first rolls of `SeededRandomNumberGenerator(seed: 42)`.
let rollsOfSeed42: [Int] = {
  var generator = SeededRandomNumberGenerator(seed: 42)
  return (0..<10).map { _ in Int.random(in: 1...6, using: &generator) }
}()

@Suite("Random number generator", .dependency(\.withRandomNumberGenerator, .seeded(42)))
struct WithRandomNumberGeneratorTests {
  @Test(arguments: 0..<16)
  func everyTestCaseStartsTheSeededSequenceAfresh(argument: Int) async {
    await Task.yield()
    let dice = Dice()
    #expect((0..<10).map { _ in dice.roll() } == rollsOfSeed42)
  }

  @Test func seededGeneratorsWithEqualSeedsAgreeAndOthersDiffer() {
    var a = SeededRandomNumberGenerator(seed: 7)
    var b = SeededRandomNumberGenerator(seed: 7)
    var c = SeededRandomNumberGenerator(seed: 8)
    let first = (0..<4).map { _ in a.next() }
    #expect(first == (0..<4).map { _ in b.next() })
    #expect(first != (0..<4).map { _ in c.next() })
  }

  @Test func aNestedCallDrawsFromTheSameSequence() {
    @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator
    let rolls = withRandomNumberGenerator { generator in
      let first = Int.random(in: 1...6, using: &generator)
      let second = Dice().roll()
      return [first, second]
    }
    #expect(rolls == Array(rollsOfSeed42.prefix(2)))
  }

  @Test func liveValueDraws() {
    let live = DependencyValues(context: .default)
    let draws = (0..<4).map { _ in live.withRandomNumberGenerator { $0.next() } }
    #expect(Set(draws).count == 4)
  }
}
