import TestSubprocess
import Testing
import TinyDependency
import TinyDependencyGraph

@Suite("Inputs: keys with no default that a container must be given")
struct DependencyInputKeyTests {
  #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test(.oneExitTestAtATime)
    func readingAnUnsetInputStopsWithTheKeyAndHowToSetIt() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        _ = DependencyValues(context: .default)[APITokenKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("APITokenKey is an input with no default value"))
      #expect(message.contains("in the default context"))
      #expect(message.contains("withDependencies { $0[APITokenKey.self] = … }"))
      #expect(message.contains("values[APITokenKey.self] = …"))
    }

    @Test(.oneExitTestAtATime)
    func anUnsetInputReadWhileBuildingStopsToo() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        _ = DependencyValues(context: .test)[ClientUsingTokenKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("APITokenKey is an input with no default value"))
    }
  #endif

  @Test func aSetInputIsReadLikeAnyValue() {
    var values = DependencyValues(context: .default)
    values[APITokenKey.self] = "secret"
    #expect(values[ClientUsingTokenKey.self] == "client(secret)")
    let scoped = withDependencies {
      $0[APITokenKey.self] = "scoped"
    } operation: {
      DependencyValues.current[ClientUsingTokenKey.self]
    }
    #expect(scoped == "client(scoped)")
  }

  @Test func anInputMayDeclareATestValue() {
    #expect(DependencyValues(context: .test)[RegionKey.self] == "test-region")
    #expect(RegionKey.lifetime == .input)
  }

  @Test func unsetInputsAreListedWithoutReadingAnything() {
    var values = DependencyValues(context: .test)
    let keys: [any DependencyKey.Type] = [APITokenKey.self, RegionKey.self, GreetingKey.self]
    #expect(values.unsetInputs(among: keys).map { "\($0)" } == ["APITokenKey", "RegionKey"])
    values[APITokenKey.self] = "secret"
    #expect(values.unsetInputs(among: keys).map { "\($0)" } == ["RegionKey"])
    #expect(values.graph.nodes.isEmpty, "listing inputs built nothing")
  }
}

enum APITokenKey: DependencyInputKey {
  typealias Value = String
}

enum ClientUsingTokenKey: DependencyKey {
  static var defaultValue: String { "client(\(DependencyValues.current[APITokenKey.self]))" }
}

enum RegionKey: DependencyInputKey {
  typealias Value = String
  static let testValue = "test-region"
}
