import Observation
import Testing
import TinyDependency

@testable import TinyDependencySwiftUI

/// A model as a SwiftUI feature writes it: `@Observable`, its dependencies ignored by observation.
@Observable
@MainActor
final class GreetingModel {
  @ObservationIgnored @Dependency(\.greeter) var greeter
  @ObservationIgnored @Dependency(\.greetingService) var service
  var message = ""

  func greet(_ name: String) {
    message = "\(greeter.prefix): \(service.greeting), \(name)"
  }
}

/// `@Observable` models hold `@ObservationIgnored @Dependency` properties and keep their scope.
@Suite("An observable model made in a modifier's scope keeps it")
@MainActor
struct ObservableModelTests {
  @Test func aModelMadeInAModifierScopeKeepsItAfterTheScopeEnds() {
    let modifier = ModifierContainer()
    let values = modifier.values(parent: DependencyValues(context: .test), inputs: ModifierInputs())
    {
      $0.greeter = Greeter(prefix: "modifier")
      $0.greeting = "hello"
    }
    // What `DependenciesReader` does with its content.
    let model = withDependencies(values) { GreetingModel() }
    model.greet("Ada")
    #expect(model.message == "modifier: hello, Ada")
  }

  @Test func aModelMadeOutsideAnyModifierReadsTheRoot() {
    let model = GreetingModel()
    model.greet("Ada")
    #expect(model.message == "test: test, Ada")
  }

  @Test func observationStillTracksTheModelsOwnProperties() {
    let model = withDependencies {
      $0.greeter = Greeter(prefix: "scoped")
    } operation: {
      GreetingModel()
    }
    let changed = Flag()
    withObservationTracking {
      _ = model.message
    } onChange: {
      changed.set()
    }
    model.greet("Ada")
    #expect(changed.isSet)
    #expect(model.message.hasPrefix("scoped: "))
  }

  @Test func readingADependencyIsNotObserved() {
    let model = GreetingModel()
    let changed = Flag()
    withObservationTracking {
      _ = model.greeter
      _ = model.service
    } onChange: {
      changed.set()
    }
    model.greet("Ada")
    #expect(!changed.isSet, "an @ObservationIgnored dependency was tracked")
  }
}

/// A flag set from observation's `onChange`, which may run on any thread.
final class Flag: @unchecked Sendable {
  // Set and read on the main actor in these tests: `onChange` runs synchronously in the setter.
  private var value = false
  func set() { value = true }
  var isSet: Bool { value }
}
