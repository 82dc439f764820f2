import Dispatch
import TestSubprocess
import Testing
import TinyDependency
import TinyDependencyCollections
import TinyDependencyTesting

@Suite("A collection is its members' values, each read as its own key")
struct DependencyCollectionKeyTests {
  // MARK: - Values

  @Test func membersComeInTheOrderTheyWereContributed() {
    var values = DependencyValues(context: .default)
    values.contribute(SharePluginKey.self)
    values.contribute(SearchPluginKey.self)
    #expect(names(values.plugins) == ["share", "search"])
  }

  @Test func eachMemberGivesItsTestValueInTests() {
    var values = DependencyValues(context: .test)
    values.contribute(SearchPluginKey.self)
    values.contribute(SharePluginKey.self)
    #expect(names(values.plugins) == ["test search", "test share"])
  }

  @Test func anOverriddenMemberGivesItsOverride() {
    var values = DependencyValues(context: .default)
    values.contribute(SearchPluginKey.self)
    values.contribute(SharePluginKey.self)
    values[SearchPluginKey.self] = NamedPlugin(name: "custom search")
    #expect(names(values.plugins) == ["custom search", "share"])
  }

  @Test func anEmptyCollectionThatAllowsItIsEmpty() {
    let values = DependencyValues(context: .test)
    #expect(values[OptionalPluginsKey.self].isEmpty)
  }

  @Test func anEmptyCollectionIsAnIssueNamingTheKeyAndContribute() {
    let values = DependencyValues(context: .test)
    withKnownIssue {
      #expect(values[ForgottenKey.self] == [])
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains("ForgottenKey is a collection with no member")
          && $0.rawValue.contains("contribute(Member.self)")
          && $0.rawValue.contains("allowsEmpty")
      }
    }
  }

  // MARK: - Scopes

  @Test func overridingOneMemberInANestedScopeRebuildsTheCollectionThereOnly() {
    var root = DependencyValues(context: .default)
    root.contribute(SearchPluginKey.self)
    root.contribute(SharePluginKey.self)
    let (outer, inner, sibling, afterwards) = withDependencies(root) {
      let outer = names(DependencyValues.current.plugins)
      let inner = withDependencies {
        $0[SharePluginKey.self] = NamedPlugin(name: "scoped share")
      } operation: {
        withDependencies {
          $0[SessionUserNameKey.self] = "nested"
        } operation: {
          names(DependencyValues.current.plugins)
        }
      }
      let sibling = withDependencies {
        $0[SessionUserNameKey.self] = "sibling"
      } operation: {
        names(DependencyValues.current.plugins)
      }
      return (outer, inner, sibling, names(DependencyValues.current.plugins))
    }
    #expect(outer == ["search", "share"])
    #expect(inner == ["search", "scoped share"])
    #expect(sibling == ["search", "share"])
    #expect(afterwards == ["search", "share"])
  }

  // MARK: - Builds

  @Test func concurrentFirstReadsShareOneBuildOfEachMember() {
    var values = DependencyValues(context: .default)
    values.contribute(CountedMemberA.self)
    values.contribute(CountedMemberB.self)
    let (aBefore, bBefore) = (CountedMemberA.builds.value, CountedMemberB.builds.value)
    let seen = LockedArray<[String]>()
    let shared = values
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      seen.append(shared[CountedCollectionKey.self])
    }
    #expect(seen.values == Array(repeating: ["a", "b(slow)"], count: 8))
    #expect(CountedMemberA.builds.value - aBefore == 1)
    #expect(CountedMemberB.builds.value - bBefore == 1)
    // A later read is the built value: no member is built again.
    #expect(values[CountedCollectionKey.self] == ["a", "b(slow)"])
    #expect(CountedMemberB.builds.value - bBefore == 1)
  }

  @Test func aSharedCollectionWithASessionScopedMemberIsCaptive() {
    var values = DependencyValues(context: .test)
    values.contribute(CartPluginKey.self)
    let session = values.beginScope(Session.self)
    withKnownIssue {
      _ = session.values[SessionPluginsKey.self]
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains("captive dependency")
          && $0.rawValue.contains("SessionPluginsKey (shared) reads CartPluginKey")
      }
    }
  }

  @MainActor
  @Test func mainActorMembersAreUsedOnTheMainActor() {
    var values = DependencyValues(context: .test)
    values.contribute(HomeScreenKey.self)
    values.contribute(SettingsScreenKey.self)
    let screens = values[ScreensKey.self]
    #expect(screens.map { $0.show() } == ["test home #1", "test settings #1"])
    // Built once: the same screens again.
    #expect(values[ScreensKey.self].map { $0.show() } == ["test home #2", "test settings #2"])
  }

  // MARK: - Stops

  #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test(.oneExitTestAtATime) func anEmptyCollectionStopsNamingTheKeyAndContribute() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        _ = DependencyValues(context: .default)[ForgottenKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("ForgottenKey is a collection with no member in the default"))
      #expect(message.contains("values.contribute(Member.self)"))
    }

    @Test(.oneExitTestAtATime) func aMemberReadingItsOwnCollectionStopsWithTheCyclesPath()
      async throws
    {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        var values = DependencyValues(context: .default)
        values.contribute(SelfReadingMemberKey.self)
        _ = values[CyclicCollectionKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("CyclicCollectionKey -> SelfReadingMemberKey -> CyclicCollectionKey")
      )
    }

    @Test(.oneExitTestAtATime) func aMemberWhoseBuildStopsNamesWhatItLacked() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        var values = DependencyValues(context: .default)
        values.contribute(FailingMemberKey.self)
        _ = values[FailingCollectionKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("UnsetTokenKey is an input with no default value"))
    }
  #endif
}
