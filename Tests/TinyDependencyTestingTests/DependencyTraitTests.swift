import Testing
import TinyDependency
import TinyDependencyTesting

@Suite("Dependency traits", .dependency(\.greeting, "suite hello"))
struct DependencyTraitTests {
  @Test func suiteTraitAppliesToEachTest() {
    #expect(DependencyValues.current.greeting == "suite hello")
    #expect(DependencyValues.current.farewell == "test bye")
  }

  @Test(.dependencies { $0.farewell = "test-level bye" })
  func testTraitNestsInsideTheSuiteTrait() {
    #expect(DependencyValues.current.greeting == "suite hello")
    #expect(DependencyValues.current.farewell == "test-level bye")
  }

  @Test(.dependency(\.greeting, "test-level hello"))
  func testTraitOverridesTheSuiteTrait() {
    #expect(DependencyValues.current.greeting == "test-level hello")
  }

  @Test(.dependency(EndpointKey.self, "https://example.com"))
  func keyTypeFormSetsAnInputWithoutReadingIt() {
    #expect(DependencyValues.current[EndpointUserKey.self] == "uses https://example.com")
  }

  @Test func valuesAreBuiltForTheTestContext() {
    #expect(DependencyValues.current.context == .test)
  }
}

@Suite("Fresh containers per test", .dependencies)
struct FreshContainerTests {
  /// Many tests and arguments in parallel, each with a stateful test value: each must see a
  /// counter of its own, starting at 1.
  @Test(arguments: 0..<64)
  func eachTestCaseGetsAFreshCounter(argument: Int) async {
    await Task.yield()
    #expect(DependencyValues.current.counter.next() == 1)
    #expect(DependencyValues.current.counter.next() == 2)
  }

  @Test func anotherTestAlsoStartsFresh() {
    #expect(DependencyValues.current.counter.next() == 1)
  }

  @Test(.dependencies)
  func aTestLevelTraitAloneGivesAFreshContainer() {
    #expect(DependencyValues.current.counter.next() == 1)
  }
}

@Suite("Strict mode under Swift Testing")
struct StrictModeTests {
  @Test(.strictDependencies)
  func readingALiveFallbackIsAnIssueAtTheTest() {
    withKnownIssue {
      #expect(DependencyValues.current[LiveOnlyKey.self] == "live only")
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("LiveOnlyKey has no testValue") }
        && issue.sourceLocation?.fileName == "DependencyTraitTests.swift"
    }
  }

  @Test(.strictDependencies, .dependency(\.liveOnly, "overridden"))
  func aKeyOverriddenByATraitIsNoIssue() {
    #expect(DependencyValues.current.liveOnly == "overridden")
  }

  @Test(.strictDependencies)
  func aTestValueThatWrapsAnotherKeysValueIsItsOwn() {
    #expect(DependencyValues.current[WrapsLiveOnlyKey.self] == "wrapped(live only)")
  }

  @Test(.strictDependencies)
  func theIssueNamesTheBuildThatReadIt() {
    withKnownIssue {
      _ = DependencyValues.current[LeakyServiceKey.self]
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains("LiveOnlyKey") && $0.rawValue.contains("LeakyServiceKey")
      }
    }
  }

  @Test(.strictDependencies)
  func keysWithTestValuesRaiseNothing() {
    #expect(DependencyValues.current[CompleteServiceKey.self] == "complete(test hello, test bye)")
  }

  @Test(.strictDependencies, .dependency(\.leakyService, "overridden service"))
  func aFallbackFirstBuiltByAKeyPathTraitIsAnIssueWhenTheTestReadsIt() {
    // Writing through the key path read the service first, which built LiveOnlyKey's value.
    withKnownIssue {
      #expect(DependencyValues.current.liveOnly == "live only")
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("LiveOnlyKey has no testValue") }
    }
    #expect(DependencyValues.current.leakyService == "overridden service")
  }

  @Test(.dependency(\.leakyService, "overridden service"), .strictDependencies)
  func aFallbackBuiltByAnOuterKeyPathTraitIsAnIssueToo() {
    withKnownIssue {
      #expect(DependencyValues.current.liveOnly == "live only")
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("LiveOnlyKey has no testValue") }
    }
    // Read, or strict mode reports the override as one with no effect.
    #expect(DependencyValues.current.leakyService == "overridden service")
  }

  @Test(.dependencies)
  func withoutStrictModeAFallbackIsQuiet() {
    #expect(DependencyValues.current[LiveOnlyKey.self] == "live only")
  }
}

@Suite("Strict mode on a suite", .strictDependencies)
struct StrictSuiteTests {
  @Test(.dependency(\.leakyService, "overridden service"))
  func aFallbackFirstBuiltByATestsKeyPathTraitIsAnIssue() {
    withKnownIssue {
      #expect(DependencyValues.current.liveOnly == "live only")
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("LiveOnlyKey has no testValue") }
    }
    // Read, or strict mode reports the override as one with no effect.
    #expect(DependencyValues.current.leakyService == "overridden service")
  }
}

@Suite("A value given to a suite trait", .dependency(\.counter, Counter()))
struct SuiteTraitValueTests {
  /// Three tests share the suite's trait: each must get a counter of its own.
  @Test func firstTestSeesAFreshCounter() async {
    await Task.yield()
    #expect(DependencyValues.current.counter.next() == 1)
  }

  @Test func secondTestSeesAFreshCounter() async {
    await Task.yield()
    #expect(DependencyValues.current.counter.next() == 1)
  }

  @Test func thirdTestSeesAFreshCounter() async {
    await Task.yield()
    #expect(DependencyValues.current.counter.next() == 1)
  }

  @Test(.dependency(CounterKey.self, Counter()), arguments: 0..<16)
  func keyTypeTraitMakesTheValueForEachArgument(argument: Int) async {
    await Task.yield()
    #expect(DependencyValues.current.counter.next() == 1)
  }

  @Test(.dependency(\.counter, Counter()), arguments: 0..<16)
  func keyPathTraitMakesTheValueForEachArgument(argument: Int) async {
    await Task.yield()
    #expect(DependencyValues.current.counter.next() == 1)
  }
}
