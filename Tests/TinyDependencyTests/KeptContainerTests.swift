import Foundation
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

  /// Builds one after another on a thread, some keeping their container and some not: each
  /// tells its own, and a binding one of them kept is never handed to a later build.
  @Test func aBuildAfterOneThatKeptNothingStillTellsAKeptContainer() {
    let root = DependencyValues(context: .default)
    for round in 1...3 {
      var nested = root
      nested[KeptInputKey.self] = round
      // A build that keeps nothing.
      _ = nested[KeptReaderKey.self]
      // The next build keeps its binding, with the nested scope.
      let holder = nested[KeptHolderKey.self]
      #expect(holder.input == round)
      // More builds on this thread: none may reuse the binding the holder kept.
      var sibling = root
      sibling[KeptOtherKey.self] = round
      _ = sibling[KeptReaderKey.self]
      #expect(sibling[KeptHolderKey.self].input == 0)
      #expect(holder.input == round)
      #expect(root[KeptHolderKey.self].input == 0)
    }
  }

  /// Builds nested on one thread: the inner one keeps its container, the outer one does not.
  /// The inner value stays in its scope.
  @Test func anInnerBuildThatKeepsItsContainerIsToldApartFromTheOuterOne() {
    let root = DependencyValues(context: .default)
    var nested = root
    nested[KeptInputKey.self] = 9
    let outer = nested[KeptWrapperKey.self]
    #expect(outer.holder.input == 9)
    #expect(root[KeptHolderKey.self].input == 0)
    var other = root
    other[KeptOtherKey.self] = 1
    #expect(other[KeptHolderKey.self].input == 0)
  }

  /// Many threads each make first reads and exit: each leaves its record of builds behind,
  /// released with its thread (`.ci/run` runs this suite under ASan and TSan).
  @Test func threadsThatBuildAndExitEachReadTheirOwnValues() async {
    let root = DependencyValues(context: .default)
    let results = await withTaskGroup(of: Int.self) { group in
      for index in 0..<16 {
        group.addTask {
          await withCheckedContinuation { continuation in
            Thread.detachNewThread {
              var scoped = root
              scoped[KeptInputKey.self] = index
              continuation.resume(returning: scoped[KeptHolderKey.self].input)
            }
          }
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.sorted() == Array(0..<16))
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

/// Builds a ``KeptHolder`` inside its own build, and keeps only that.
struct KeptWrapper: Sendable {
  let holder: KeptHolder
}

enum KeptWrapperKey: DependencyKey {
  static var defaultValue: KeptWrapper {
    KeptWrapper(holder: DependencyValues.current[KeptHolderKey.self])
  }
}
