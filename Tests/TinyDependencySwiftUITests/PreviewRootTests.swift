import Testing
import TinyDependency

@testable import TinyDependencySwiftUI

/// Each preview gets a fresh root of its own: no other preview's values, no prepared values.
@Suite("A preview root is fresh for each preview and each run, and sees no prepared values")
@MainActor
struct PreviewRootTests {
  // MARK: - One root per preview

  @Test func aPreviewKeepsItsRootAcrossRedraws() {
    let preview = PreviewRoot()
    var containers = Set<UInt64>()
    var services = Set<ObjectIdentifier>()
    for _ in 0..<100 {
      let values = preview.values { $0.greeting = "preview A" }
      containers.insert(values.containerNumber)
      services.insert(ObjectIdentifier(values.greetingService))
    }
    #expect(preview.roots == 1)
    #expect(containers.count == 1)
    #expect(services.count == 1)
  }

  @Test func twoPreviewsShareNoValue() {
    let first = PreviewRoot().values { _ in }
    let second = PreviewRoot().values { _ in }
    #expect(first.containerNumber != second.containerNumber)
    #expect(first.counterService !== second.counterService)
    #expect(first.greetingService !== second.greetingService)
  }

  @Test func onePreviewsTraitsDoNotReachAnother() {
    let first = PreviewRoot().values { $0.greeting = "first" }
    let second = PreviewRoot().values { _ in }
    #expect(first.greeting == "first")
    #expect(second.greeting == "preview")
  }

  @Test func aRerunOfThePreviewBodyStartsClean() {
    // A run makes the preview's view tree anew, and with it the state that holds the root.
    var runs: [DependencyValues] = []
    for _ in 0..<3 {
      let tree = PreviewRoot()
      let values = tree.values { $0.greeting = "run" }
      _ = values.greetingService
      runs.append(values)
    }
    #expect(Set(runs.map(\.containerNumber)).count == 3)
    #expect(Set(runs.map { ObjectIdentifier($0.greetingService) }).count == 3)
  }

  // MARK: - The preview context, and nothing the app prepared

  @Test func aRootIsBuiltForThePreviewContext() {
    let values = PreviewRoot().values { _ in }
    #expect(values.context == .preview)
    #expect(values.greeter.prefix == "preview")
  }

  @Test func whatTheAppPreparedDoesNotReachAPreview() {
    // What an app's entry point does, in a process that previews run in too.
    prepareDependencies { $0[PreparedGreetingKey.self] = "prepared by the app" }
    #expect(DependencyValues.current[PreparedGreetingKey.self] == "prepared by the app")
    let values = PreviewRoot().values { _ in }
    #expect(values[PreparedGreetingKey.self] == "preview")
  }

  @Test func aModifierBelowAPreviewRootDerivesFromIt() {
    let root = PreviewRoot().values { $0.greeting = "root" }
    let modifier = ModifierContainer()
    let values = modifier.values(parent: root, inputs: ModifierInputs()) {
      $0.greeter = Greeter(prefix: "modifier")
    }
    #expect(values.greeting == "root")
    #expect(values.greeter.prefix == "modifier")
    #expect(values.context == .preview)
  }
}

/// A key only `whatTheAppPreparedDoesNotReachAPreview` prepares.
private enum PreparedGreetingKey: DependencyKey {
  static let defaultValue = "live"
  static let testValue = "test"
  static let previewValue = "preview"
}
