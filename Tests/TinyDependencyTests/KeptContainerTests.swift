import Testing
import TinyDependency

/// A value that keeps a copy of `DependencyValues.current` from its build reads through that
/// container later: the copy is a capture of the build's scope, like an escaped scope.
@Suite("A value that keeps the container of its build stays in that scope")
struct KeptContainerTests {
  @Test func aNestedOverrideKeptByAValueDoesNotReachTheOuterOrASiblingScope() {
    withDependencies(DependencyValues(context: .default)) {
      let nested = withDependencies {
        $0[KeptInputKey.self] = 5
      } operation: {
        DependencyValues.current[KeptHolderKey.self].input
      }
      #expect(nested == 5)
      #expect(DependencyValues.current[KeptHolderKey.self].input == 0)
      let sibling = withDependencies {
        $0[KeptOtherKey.self] = 1
      } operation: {
        DependencyValues.current[KeptHolderKey.self].input
      }
      #expect(sibling == 0)
    }
  }

  @Test func aScopeInsideThatOverridesTheInputGetsItsOwnValue() {
    withDependencies(DependencyValues(context: .default)) {
      #expect(DependencyValues.current[KeptHolderKey.self].input == 0)
      let nested = withDependencies {
        $0[KeptInputKey.self] = 7
      } operation: {
        DependencyValues.current[KeptHolderKey.self].input
      }
      #expect(nested == 7)
    }
  }

  @Test func aScopeThatChangesNothingReusesTheValue() {
    withDependencies(DependencyValues(context: .default)) {
      let outer = DependencyValues.current[KeptHolderKey.self].id
      let inner = withDependencies { _ in
      } operation: {
        DependencyValues.current[KeptHolderKey.self].id
      }
      #expect(inner == outer)
    }
  }

  /// Reading through `DependencyValues.current` without keeping it is no capture: the value is
  /// still shared with the scopes around that override nothing it read.
  @Test func aBuildThatOnlyReadsThroughTheCurrentContainerIsStillShared() {
    let root = DependencyValues(context: .default)
    var nested = root
    nested[KeptOtherKey.self] = 1
    let built = nested[KeptReaderKey.self]
    #expect(root[KeptReaderKey.self] === built)
  }
}

// MARK: - Keys

enum KeptInputKey: DependencyKey {
  static let defaultValue = 0
}

enum KeptOtherKey: DependencyKey {
  static let defaultValue = 0
}

/// Keeps the container of its build and reads from it later.
struct KeptHolder: Sendable {
  let values: DependencyValues
  let id = KeptIdentity()
  var input: Int { values[KeptInputKey.self] }
}

final class KeptIdentity: Sendable, Equatable {
  static func == (lhs: KeptIdentity, rhs: KeptIdentity) -> Bool { lhs === rhs }
}

enum KeptHolderKey: DependencyKey {
  static var defaultValue: KeptHolder { KeptHolder(values: DependencyValues.current) }
}

final class KeptReader: Sendable {
  let other: Int
  init(other: Int) { self.other = other }
}

enum KeptReaderKey: DependencyKey {
  static var defaultValue: KeptReader {
    let values = DependencyValues.current
    return KeptReader(other: values[KeptInputKey.self])
  }
}
