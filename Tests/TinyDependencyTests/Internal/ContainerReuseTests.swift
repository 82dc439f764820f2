import Testing

@testable import TinyDependency

/// One container variable, set and bound over and over, as a server loop reuses it: the chain
/// of storages behind it must not grow with the rounds, whatever keys they set.
@Suite("A reused container keeps a bounded chain of scopes")
struct ContainerReuseTests {
  @Test func alternatingTwoKeysKeepsTheChainBounded() {
    var reused = DependencyValues(context: .default)
    var deepest = 0
    for round in 0..<2_000 {
      if round.isMultiple(of: 2) {
        reused[ReuseFirstKey.self] = round
      } else {
        reused[ReuseSecondKey.self] = round
      }
      let read = withDependencies(reused) { DependencyValues.current[ReuseBuiltKey.self] }
      #expect(read == "built(\(round.isMultiple(of: 2) ? round : round - 1))")
      deepest = max(deepest, reused.storage.depth)
    }
    #expect(deepest <= 2)
    #expect(reused[ReuseFirstKey.self] == 1_998)
    #expect(reused[ReuseSecondKey.self] == 1_999)
  }

  @Test func settingTheSameKeyEveryRoundKeepsTheChainBounded() {
    var reused = DependencyValues(context: .default)
    for round in 0..<1_000 {
      reused[ReuseFirstKey.self] = round
      #expect(
        withDependencies(reused) { DependencyValues.current[ReuseBuiltKey.self] }
          == "built(\(round))"
      )
    }
    #expect(reused.storage.depth <= 2)
  }

  /// A scope that something else still holds (here a copy) stays in the chain: the copy's
  /// values are not the reused container's.
  @Test func aCopyKeepsItsOwnValues() {
    var reused = DependencyValues(context: .default)
    reused[ReuseFirstKey.self] = 1
    let copy = reused
    _ = withDependencies(copy) { DependencyValues.current[ReuseBuiltKey.self] }
    reused[ReuseSecondKey.self] = 2
    reused[ReuseFirstKey.self] = 3
    #expect(copy[ReuseFirstKey.self] == 1)
    #expect(copy[ReuseSecondKey.self] == 0)
    #expect(copy[ReuseBuiltKey.self] == "built(1)")
    #expect(reused[ReuseBuiltKey.self] == "built(3)")
  }
}

private enum ReuseFirstKey: DependencyKey {
  static let defaultValue = 0
}

private enum ReuseSecondKey: DependencyKey {
  static let defaultValue = 0
}

private enum ReuseBuiltKey: DependencyKey {
  static var defaultValue: String { "built(\(DependencyValues.current[ReuseFirstKey.self]))" }
}
