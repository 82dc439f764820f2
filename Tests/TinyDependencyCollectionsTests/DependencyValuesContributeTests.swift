import Testing
import TinyDependency
import TinyDependencyCollections
import TinyDependencyTesting

@Suite("Contributing a member: once, and before its collection is read")
struct DependencyValuesContributeTests {
  @Test func contributingAMemberTwiceIsReportedAndKeepsItOnce() {
    var values = DependencyValues(context: .test)
    values.contribute(SearchPluginKey.self)
    values.contribute(SharePluginKey.self)
    withKnownIssue {
      values.contribute(SearchPluginKey.self)
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains("SearchPluginKey was contributed to PluginsKey twice")
      }
    }
    #expect(names(values.plugins) == ["test search", "test share"])
  }

  @Test func aSecondContributionNamesTheModuleOfTheFirst() {
    var values = DependencyValues(context: .test)
    values.register(SearchModule.self)
    withKnownIssue {
      values.contribute(SearchPluginKey.self)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("twice (first by SearchModule)") }
    }
  }

  @Test func contributingAfterTheCollectionWasReadIsReportedAndNotApplied() {
    var values = DependencyValues(context: .test)
    values.contribute(SearchPluginKey.self)
    #expect(names(values.plugins) == ["test search"])
    withKnownIssue {
      values.contribute(SharePluginKey.self)
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains("contribute(SharePluginKey.self) came after PluginsKey was read")
      }
    }
    #expect(names(values.plugins) == ["test search"])
  }

  @Test func contributingInAScopeOfAContainerThatReadTheCollectionIsNotApplied() {
    var values = DependencyValues(context: .test)
    values.contribute(SearchPluginKey.self)
    _ = values.plugins
    let inScope: [String] = withDependencies(values) {
      var result: [String] = []
      withKnownIssue {
        result = withDependencies {
          $0.contribute(SharePluginKey.self)
        } operation: {
          names(DependencyValues.current.plugins)
        }
      } matching: { issue in
        issue.comments.contains { $0.rawValue.contains("came after PluginsKey was read") }
      }
      return result
    }
    #expect(inScope == ["test search"])
    #expect(names(values.plugins) == ["test search"])
  }

  @Test func aScopeThatContributesBeforeAnyReadSeesTheAddedMember() {
    var values = DependencyValues(context: .test)
    values.contribute(SearchPluginKey.self)
    let inScope = withDependencies(values) {
      withDependencies {
        $0.contribute(SharePluginKey.self)
      } operation: {
        names(DependencyValues.current.plugins)
      }
    }
    #expect(inScope == ["test search", "test share"])
    #expect(names(values.plugins) == ["test search"])
  }

  @Test func prepareDependenciesContributesToTheTestsRoot() {
    prepareDependencies {
      $0.contribute(SharePluginKey.self)
      $0.contribute(SearchPluginKey.self)
    }
    #expect(names(DependencyValues.current.plugins) == ["test share", "test search"])
  }
}
