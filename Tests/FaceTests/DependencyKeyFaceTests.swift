import Testing
import TinyDependencyFaceTestSupport

// Keys written as a swift-dependencies user writes them: `DependencyKey` with `liveValue`, and
// nothing else imported. Each compiles only when the face's `DependencyKey` is the one found.

private struct GreetingClient: DependencyKey {
  var greet: @Sendable (String) -> String
  static let liveValue = GreetingClient { "Hello, \($0)" }
  static let testValue = GreetingClient { "Test hello, \($0)" }
}

private enum LiveOnlyKey: DependencyKey {
  static let liveValue = 42
}

extension DependencyValues {
  fileprivate var greeting: GreetingClient {
    get { self[GreetingClient.self] }
    set { self[GreetingClient.self] = newValue }
  }
}

@Suite struct DependencyKeyFaceTests {
  // MARK: - liveValue

  @Test func liveValueIsTheValueOutsideTests() {
    withDependencies {
      $0.context = .default
    } operation: {
      @Dependency(\.greeting) var greeting
      #expect(greeting.greet("Blob") == "Hello, Blob")
      #expect(DependencyValues.current[LiveOnlyKey.self] == 42)
    }
  }

  @Test func testValueIsTheValueInTests() {
    @Dependency(\.greeting) var greeting
    #expect(greeting.greet("Blob") == "Test hello, Blob")
  }

  @Test func theFaceRefinesTheCoresKey() {
    #expect((LiveOnlyKey.self as Any) is any TinyDependency.DependencyKey.Type)
    #expect(LiveOnlyKey.defaultValue == 42)
  }

  // MARK: - Test support

  @Test(.dependency(\.greeting, GreetingClient { "Hi, \($0)" }))
  func theTestSupportFaceBringsTheTraits() {
    @Dependency(\.greeting) var greeting
    #expect(greeting.greet("Blob") == "Hi, Blob")
  }
}
