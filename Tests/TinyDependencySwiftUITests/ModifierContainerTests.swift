import Testing
import TinyDependency

@testable import TinyDependencySwiftUI

/// A modifier's container is derived once per modifier identity and kept across redraws.
@Suite("A modifier derives its container once and keeps it across redraws")
@MainActor
struct ModifierContainerTests {
  // MARK: - Redraws

  @Test func aHundredRedrawsDeriveOneContainerAndBuildEachServiceOnce() {
    let parent = DependencyValues(context: .test)
    let modifier = ModifierContainer()
    var services = Set<ObjectIdentifier>()
    var containers = Set<UInt64>()
    for _ in 0..<100 {
      let values = modifier.values(parent: parent, inputs: ModifierInputs()) {
        $0.greeting = "modifier"
      }
      containers.insert(values.containerNumber)
      services.insert(ObjectIdentifier(values.greetingService))
      #expect(values.greetingService.greeting == "modifier")
    }
    #expect(modifier.derivations == 1)
    #expect(containers.count == 1)
    #expect(services.count == 1, "a redraw rebuilt the subtree's service")
  }

  @Test func redrawsOfAnEquatableValueThatStaysTheSameKeepTheContainer() {
    let parent = DependencyValues(context: .test)
    let modifier = ModifierContainer()
    for _ in 0..<100 {
      let inputs = ModifierInputs(keyPath: \DependencyValues.greeting, value: "same")
      _ = modifier.values(parent: parent, inputs: inputs) { $0.greeting = "same" }
    }
    #expect(modifier.derivations == 1)
  }

  @Test func redrawsWithTheSameObjectKeepTheContainer() {
    let parent = DependencyValues(context: .test)
    let modifier = ModifierContainer()
    let service = CounterService()
    for _ in 0..<100 {
      let inputs = ModifierInputs(keyPath: \DependencyValues.counterService, value: service)
      _ = modifier.values(parent: parent, inputs: inputs) { $0.counterService = service }
    }
    #expect(modifier.derivations == 1)
  }

  // MARK: - What derives again

  @Test func anotherParentContainerDerivesAgain() {
    let modifier = ModifierContainer()
    let first = DependencyValues(context: .test)
    var second = first
    second.greeting = "other parent"
    let a = modifier.values(parent: first, inputs: ModifierInputs()) { _ in }
    let b = modifier.values(parent: second, inputs: ModifierInputs()) { _ in }
    let c = modifier.values(parent: second, inputs: ModifierInputs()) { _ in }
    #expect(modifier.derivations == 2)
    #expect(a.greeting == "test")
    #expect(b.greeting == "other parent")
    #expect(b.containerNumber == c.containerNumber)
  }

  @Test func aChangedEquatableValueDerivesAgain() {
    let parent = DependencyValues(context: .test)
    let modifier = ModifierContainer()
    var greetings: [String] = []
    for greeting in ["a", "a", "b", "b", "a"] {
      let inputs = ModifierInputs(keyPath: \DependencyValues.greeting, value: greeting)
      let values = modifier.values(parent: parent, inputs: inputs) { $0.greeting = greeting }
      greetings.append(values.greeting)
    }
    #expect(greetings == ["a", "a", "b", "b", "a"])
    #expect(modifier.derivations == 3)
  }

  @Test func anotherObjectDerivesAgain() {
    let parent = DependencyValues(context: .test)
    let modifier = ModifierContainer()
    for _ in 0..<3 {
      let service = CounterService()
      let inputs = ModifierInputs(keyPath: \DependencyValues.counterService, value: service)
      let values = modifier.values(parent: parent, inputs: inputs) { $0.counterService = service }
      #expect(values.counterService === service)
    }
    #expect(modifier.derivations == 3)
  }

  @Test func aChangedIDDerivesAgainAndAnUnchangedOneDoesNot() {
    let parent = DependencyValues(context: .test)
    let modifier = ModifierContainer()
    for id in [1, 1, 2, 2, 2] {
      _ = modifier.values(parent: parent, inputs: ModifierInputs(id: id)) { _ in }
    }
    #expect(modifier.derivations == 2)
  }

  @Test func aValueThatCannotBeComparedIsKeptUntilItsIDChanges() {
    let parent = DependencyValues(context: .test)
    let modifier = ModifierContainer()
    var seen: [String] = []
    for (id, prefix) in [(0, "a"), (0, "b"), (1, "c")] {
      let greeter = Greeter(prefix: prefix)
      let inputs = ModifierInputs(keyPath: \DependencyValues.greeter, value: greeter)
        .adding(id: id)
      let values = modifier.values(parent: parent, inputs: inputs) { $0.greeter = greeter }
      seen.append(values.greeter.prefix)
    }
    #expect(seen == ["a", "a", "c"])
    #expect(modifier.derivations == 2)
  }

  // MARK: - Nesting

  @Test func anInnerModifierSeesTheOuterOneAndIsKeptWhileTheOuterIs() {
    let root = DependencyValues(context: .test)
    let outer = ModifierContainer()
    let inner = ModifierContainer()
    for _ in 0..<100 {
      let outerValues = outer.values(parent: root, inputs: ModifierInputs()) {
        $0.greeting = "outer"
      }
      let innerValues = inner.values(parent: outerValues, inputs: ModifierInputs()) {
        $0.greeter = Greeter(prefix: "inner")
      }
      #expect(innerValues.greeting == "outer")
      #expect(innerValues.greeter.prefix == "inner")
    }
    #expect(outer.derivations == 1)
    #expect(inner.derivations == 1)
  }

  @Test func anOuterChangeReachesTheInnerModifier() {
    let root = DependencyValues(context: .test)
    let outer = ModifierContainer()
    let inner = ModifierContainer()
    var seen: [String] = []
    for greeting in ["a", "a", "b"] {
      let outerValues = outer.values(
        parent: root,
        inputs: ModifierInputs(keyPath: \DependencyValues.greeting, value: greeting)
      ) { $0.greeting = greeting }
      let innerValues = inner.values(parent: outerValues, inputs: ModifierInputs()) { _ in }
      seen.append(innerValues.greeting)
    }
    #expect(seen == ["a", "a", "b"])
    #expect(inner.derivations == 2)
  }
}
