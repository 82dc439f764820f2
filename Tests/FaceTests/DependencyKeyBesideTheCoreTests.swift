import Testing
import TinyDependency
import TinyDependencyFace

// A file that imports the core as well as the face: both declare `DependencyKey`, and neither
// shadows the other here (the core is reached without going through the face), so the file names
// the face's protocol with its module, as the migration guide says.

private struct Greeter: Sendable {
  var greet: @Sendable (String) -> String
}

extension Greeter: TinyDependencyFace.DependencyKey {
  static let liveValue = Greeter { "Hello, \($0)" }
  static let testValue = Greeter { "Test hello, \($0)" }
}

private enum ShoutKey: TinyDependency.DependencyKey {
  static let defaultValue = "HELLO"
}

@Suite("A file that imports the core and the face names the face's key with its module")
struct DependencyKeyBesideTheCoreTests {
  @Test func theFacesKeyNamedWithItsModuleKeepsLiveValue() {
    #expect(DependencyValues.current[Greeter.self].greet("Blob") == "Test hello, Blob")
    withDependencies {
      $0 = .live
    } operation: {
      #expect(DependencyValues.current[Greeter.self].greet("Blob") == "Hello, Blob")
    }
    #expect(Greeter.defaultValue.greet("Blob") == "Hello, Blob")
  }

  @Test func theCoresKeyNamedWithItsModuleKeepsDefaultValue() {
    withDependencies {
      $0 = .live
    } operation: {
      #expect(DependencyValues.current[ShoutKey.self] == "HELLO")
    }
  }
}
