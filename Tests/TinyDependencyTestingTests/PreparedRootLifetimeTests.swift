import Testing
import TinyDependency
import TinyDependencyTesting

/// A value that tells when it is freed.
final class PreparedProbe: Sendable {}

enum PreparedProbeKey: DependencyKey {
  static var defaultValue: PreparedProbe? { nil }
}

@Suite("What prepareDependencies keeps for a container is freed with the container")
struct PreparedRootLifetimeTests {
  @Test func aBoundContainerPreparedInATestIsFreedAfterItsScope() {
    weak var probe: PreparedProbe?
    for _ in 0..<100 {
      let made = PreparedProbe()
      probe = made
      var values = DependencyValues(context: .test)
      values[PreparedProbeKey.self] = made
      withDependencies(values) {
        prepareDependencies { $0.context = .test }
        #expect(DependencyValues.current[PreparedProbeKey.self] === made)
      }
    }
    // Nothing but the loop's last container held the probe: a registry of prepared containers
    // kept each one, and its values, for the life of the process.
    #expect(probe == nil)
  }
}

enum PreparedInputKey: DependencyInputKey {
  typealias Value = String
}

@Suite("unsetInputs(among:) counts what prepareDependencies set in the running test")
struct PreparedInputTests {
  @Test func anInputPreparedInTheTestIsSet() {
    #expect(DependencyValues.current.unsetInputs(among: [PreparedInputKey.self]).count == 1)
    prepareDependencies { $0[PreparedInputKey.self] = "prepared" }
    #expect(DependencyValues.current[PreparedInputKey.self] == "prepared")
    #expect(DependencyValues.current.unsetInputs(among: [PreparedInputKey.self]).isEmpty)
  }

  @Test func anInputPreparedInABoundContainerIsSetThere() {
    withDependencies(DependencyValues(context: .test)) {
      prepareDependencies { $0[PreparedInputKey.self] = "prepared" }
      #expect(DependencyValues.current.unsetInputs(among: [PreparedInputKey.self]).isEmpty)
    }
  }
}
