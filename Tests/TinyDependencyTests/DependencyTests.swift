import Testing

@testable import TinyDependency

@Suite("The @Dependency property wrapper")
struct DependencyTests {
  struct Greeter: Sendable {
    @Dependency(\.greeting) var greeting
    @Dependency(\.greeter) var service
    @Dependency(\.leaf) var leaf
    @Dependency(\.top) var top
  }

  struct ByKeyType {
    @Dependency(GreetingKey.self) var greeting
  }

  // MARK: - Reading

  @Test func readsTheCurrentValue() {
    #expect(Greeter().greeting == "hello")
    #expect(ByKeyType().greeting == "hello")
  }

  @Test func objectMadeOutsideScopesReadsTheScopeItIsUsedIn() {
    let greeter = Greeter()
    withDependencies {
      $0.greeting = "scoped"
    } operation: {
      #expect(greeter.greeting == "scoped")
      #expect(ByKeyType().greeting == "scoped")
    }
    #expect(greeter.greeting == "hello")
  }

  // MARK: - Capture

  @Test func objectMadeInScopeKeepsItAfterTheScopeEnds() {
    let greeter = withDependencies {
      $0.greeting = "captured"
    } operation: {
      Greeter()
    }
    #expect(greeter.greeting == "captured")
    #expect(greeter.service.name == "greeter says captured")
    #expect(DependencyValues.current.greeting == "hello")
  }

  @Test func objectsMadeInAScopeShareOneCaptureThatGoesWithTheLast() {
    withDependencies {
      $0.greeting = "scoped"
    } operation: {
      let storage = DependencyValues.current.storage
      var kept: Greeter? = Greeter()
      weak let capture = storage.state.withLock { $0.strongCapture }
      #expect(capture != nil)
      // Every wrapper made here shares it: one capture a scope, not one a wrapper.
      let second = Greeter()
      #expect(storage.state.withLock { $0.strongCapture } === capture)
      #expect(second.greeting == "scoped")
      withDependencies {
        $0.requestID = "r1"
      } operation: {
        #expect(kept?.greeting == "scoped")
      }
      // The scope refers to its capture weakly: it goes with the last object that keeps it.
      kept = nil
      _ = consume second
      #expect(capture == nil)
      #expect(storage.state.withLock { $0.strongCapture } == nil)
    }
  }

  @Test func objectsOfTwoScopesReadInTurnInAThirdKeepTheirOwn() {
    let first = withDependencies {
      $0.greeting = "first"
    } operation: {
      Greeter()
    }
    let second = withDependencies {
      $0.greeting = "second"
    } operation: {
      Greeter()
    }
    withDependencies {
      $0.requestID = "r1"
    } operation: {
      for _ in 0..<3 {
        #expect(first.greeting == "first")
        #expect(second.greeting == "second")
        #expect(first.service.name == "greeter says first")
        #expect(second.service.name == "greeter says second")
      }
    }
  }

  @Test func laterScopeOverridingTheSameKeyWins() {
    let greeter = withDependencies {
      $0.greeting = "captured"
    } operation: {
      Greeter()
    }
    withDependencies {
      $0.greeting = "later"
    } operation: {
      #expect(greeter.greeting == "later")
      #expect(greeter.service.name == "greeter says later")
    }
    #expect(greeter.greeting == "captured")
  }

  @Test func laterScopeOverridingOtherKeysKeepsCapturedOverrides() {
    let greeter = withDependencies {
      $0.greeting = "captured"
    } operation: {
      Greeter()
    }
    withDependencies {
      $0.leaf = "later leaf"
    } operation: {
      #expect(greeter.greeting == "captured")
      #expect(greeter.leaf == "later leaf")
      #expect(greeter.service.name == "greeter says captured")
    }
  }

  @Test func valueBuiltForCombinedScopesReflectsBoth() {
    let greeter = withDependencies {
      $0.right = "captured right"
    } operation: {
      Greeter()
    }
    withDependencies {
      $0.leaf = "current leaf"
    } operation: {
      #expect(greeter.top == "top(left(current leaf), captured right)")
    }
  }

  @Test func combinedScopeBuildsOnceAcrossReads() {
    let log = BuildLog()
    let greeter = withDependencies {
      $0.buildLog = log
      $0.greeting = "captured"
    } operation: {
      Greeter()
    }
    withDependencies {
      $0.leaf = "other"
    } operation: {
      for _ in 0..<10 {
        #expect(greeter.service.name == "greeter says captured")
      }
    }
    #expect(log.count("Greeter") == 1)
  }

  @Test func overrideOfAnEnclosingScopeDoesNotBeatTheCapturedOne() {
    withDependencies {
      $0.greeting = "enclosing"
    } operation: {
      let greeter = withDependencies {
        $0.greeting = "inner"
      } operation: {
        Greeter()
      }
      // The enclosing scope's override is older than the capture: the capture keeps "inner".
      #expect(greeter.greeting == "inner")
    }
  }

  @Test func objectMadeInExplicitContainerKeepsItsValues() {
    var values = DependencyValues(context: .preview)
    values.greeting = "container"
    let greeter = withDependencies(values) { Greeter() }
    #expect(greeter.greeting == "container")
    #expect(greeter.service === values.greeter)
  }

  @Test func copiesOfCapturedObjectsShareTheirScope() async {
    let greeter = withDependencies {
      $0.greeting = "shared capture"
    } operation: {
      Greeter()
    }
    let seen = await withTaskGroup(of: String.self) { group in
      for _ in 0..<8 {
        group.addTask { greeter.greeting }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(seen == Array(repeating: "shared capture", count: 8))
  }

  // MARK: - Capture inside builds, races, lifetimes

  @Test func objectBuiltAsAValueReadsItsContainerWithoutKeepingItAlive() {
    weak var weakStorage: AnyObject?
    do {
      var request = DependencyValues(context: .test)
      request.greeting = "r-42"
      let handler = request[HandlerKey.self]
      #expect(withDependencies(request) { handler.greeting } == "r-42")
      weakStorage = request.storage
    }
    #expect(weakStorage == nil, "the container leaked through a value it built")
  }

  @Test func valueThatOutlivesItsContainerKeepsItsOverridesAndContext() {
    let handler: Handler = {
      var container = DependencyValues(context: .preview)
      container.greeting = "r-42"
      return container[HandlerKey.self]
    }()
    #expect(handler.greeting == "r-42")
    #expect(handler.contextName == "preview")
  }

  @Test func scopeOpenedInsideABuilderIsKeptByWhatItMakes() {
    let handler = DependencyValues(context: .test)[ConfiguredHandlerKey.self]
    #expect(handler.greeting == "configured")
  }

  @Test func valueBuiltInAContainerAndReadElsewhereBuildsOnce() {
    let log = BuildLog()
    var container = DependencyValues(context: .test)
    container.buildLog = log
    container.greeting = "from container"
    let handler = container[HandlerKey.self]
    var elsewhere = DependencyValues(context: .test)
    elsewhere.leaf = "elsewhere"
    withDependencies(elsewhere) {
      for _ in 0..<5 {
        #expect(handler.service.name == "greeter says from container")
      }
    }
    #expect(log.count("Greeter") == 1)
  }

  @Test func overrideWinsAfterAContainerWasUsedForATransientRead() {
    let greeter = withDependencies {
      $0.greeting = "captured"
    } operation: {
      Greeter()
    }
    var values = DependencyValues(context: .test)
    #expect(values[TransientGreetingKey.self] == "hello")
    values.greeting = "mine"
    #expect(withDependencies(values) { greeter.greeting } == "mine")
  }

  @Test func concurrentFirstReadsThroughACaptureBuildOnce() async {
    for round in 0..<200 {
      let log = BuildLog()
      let greeter = withDependencies {
        $0.buildLog = log
        $0.greeting = "captured \(round)"
      } operation: {
        Greeter()
      }
      let scope = withDependencies {
        $0.leaf = "elsewhere"
      } operation: {
        withEscapedDependencies { $0 }
      }
      let names = await onThreads(4) { _ in scope.yield { greeter.service.name } }
      #expect(names == Array(repeating: "greeter says captured \(round)", count: 4))
      #expect(log.count("Greeter") == 1)
    }
  }
}

/// A handler built as a dependency value, with a wrapper of its own.
///
/// `@unchecked Sendable`: a property wrapper's backing storage is always a `var`, but
/// `Dependency` has no setter, so nothing ever writes it after `init`.
final class Handler: @unchecked Sendable {
  @Dependency(\.greeting) var greeting
  @Dependency(\.contextName) var contextName
  @Dependency(\.greeter) var service
}

/// Builds its handler inside a scope of its own.
enum ConfiguredHandlerKey: DependencyKey {
  static var defaultValue: Handler {
    withDependencies {
      $0.greeting = "configured"
    } operation: {
      Handler()
    }
  }
}

enum HandlerKey: DependencyKey {
  static var defaultValue: Handler { Handler() }
}

enum TransientGreetingKey: DependencyKey {
  static var defaultValue: String { DependencyValues.current.greeting }
  static var lifetime: DependencyLifetime { .transient }
}
