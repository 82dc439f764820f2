import TestSubprocess
import Testing
import TinyDependency
import TinyDependencyCollections
import TinyDependencyTesting

@Suite("A map is its members' values under their map keys, one member per map key")
struct DependencyMapKeyTests {
  @Test func membersAreFoundByTheirMapKeys() {
    var values = DependencyValues(context: .test)
    values.contribute(SearchHandlerKey.self)
    values.contribute(OpenHandlerKey.self)
    let handlers = values[HandlersKey.self]
    #expect(handlers.keys.sorted() == ["open", "search"])
    #expect(handlers["search"]?.handle("x") == "test search:x")
    #expect(handlers["open"]?.handle("y") == "test open:y")
  }

  @Test func anOverriddenMemberGivesItsOverride() {
    var values = DependencyValues(context: .default)
    values.contribute(SearchHandlerKey.self)
    values[SearchHandlerKey.self] = PrefixHandler(prefix: "custom:")
    #expect(values[HandlersKey.self]["search"]?.handle("x") == "custom:x")
  }

  @Test func twoMembersWithOneMapKeyAreAnIssueNamingBothAndNeitherWinsSilently() {
    var values = DependencyValues(context: .test)
    values.contribute(SearchHandlerKey.self)
    values.contribute(OtherSearchHandlerKey.self)
    withKnownIssue {
      let handlers = values[HandlersKey.self]
      #expect(handlers["search"]?.handle("x") == "test search:x")
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains("HandlersKey has two members with the map key \"search\"")
          && $0.rawValue.contains("SearchHandlerKey and OtherSearchHandlerKey")
      }
    }
  }

  @Test func anEmptyMapIsAnIssue() {
    withKnownIssue {
      #expect(DependencyValues(context: .test)[HandlersKey.self].isEmpty)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("HandlersKey is a map (DependencyMapKey)") }
    }
  }

  #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test(.oneExitTestAtATime) func aDuplicateMapKeyStopsNamingBothMembers() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        var values = DependencyValues(context: .default)
        values.contribute(SearchHandlerKey.self)
        values.contribute(OtherSearchHandlerKey.self)
        _ = values[HandlersKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("SearchHandlerKey and OtherSearchHandlerKey"))
      #expect(message.contains("give one of them another `mapKey`"))
    }
  #endif
}
