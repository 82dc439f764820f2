import Testing

@testable import TinyDependency

/// Values that cross scopes: nested builds that capture their scope, objects that outlive their
/// scope, objects read in other scopes, containers reused, and sibling scopes sharing a build.
@Suite("Values shared across scopes stay in their scope and are built once")
struct ScopeSharingTests {
  // MARK: - Captures inside nested builds

  @Test func nestedBuildThatCapturesItsScopeIsNotSharedWithTheRoot() {
    let root = DependencyValues(context: .default)
    var first = root
    first.requestID = "r-1"
    #expect(first[RequestOuterKey.self].inner.requestID == "r-1")
    var second = root
    second.greeting = "x"
    let seen = withDependencies(second) { second[RequestOuterKey.self].inner.requestID }
    #expect(seen == "none")
    #expect(root[RequestOuterKey.self].inner.requestID == "none")
  }

  @Test func valueThatStoresAnEscapedScopeIsNotSharedWithTheRoot() {
    let root = DependencyValues(context: .default)
    var first = root
    first.requestID = "r-1"
    #expect(first[EscapedScopeKey.self].scope.yield { DependencyValues.current.requestID } == "r-1")
    var second = root
    second.greeting = "x"
    let seen = second[EscapedScopeKey.self].scope.yield { DependencyValues.current.requestID }
    #expect(seen == "none")
  }

  @Test func valueThatStoresAnEscapedScopeDoesNotKeepItsContainerAlive() {
    weak var weakStorage: DependencyStorage?
    do {
      var request = DependencyValues(context: .default)
      request.requestID = "r-7"
      let stored = request[EscapedScopeKey.self]
      weakStorage = request.storage
      #expect(stored.scope.yield { DependencyValues.current.requestID } == "r-7")
    }
    #expect(weakStorage == nil, "the container and the value it built keep each other alive")
  }

  // MARK: - Objects that outlive their scope

  @Test func objectWhoseScopeEndedKeepsItsOverrideOverAnOlderEnclosingOne() {
    withDependencies {
      $0.greeting = "enclosing"
    } operation: {
      weak var weakStorage: DependencyStorage?
      let handler = withDependencies {
        $0.greeting = "inner"
      } operation: {
        weakStorage = DependencyValues.current.storage
        return DependencyValues.current[RequestHandlerKey.self]
      }
      #expect(weakStorage == nil, "the nested scope should be gone for this test to mean anything")
      #expect(handler.greeting == "inner")
    }
  }

  @Test func objectWhoseContainerWasDroppedSharesTheAppsSingletons() {
    let app = DependencyValues(context: .default)
    let handler: RequestHandler = {
      var request = app
      request.requestID = "r-1"
      return request[RequestHandlerKey.self]
    }()
    let pool = withDependencies(app) { handler.pool }
    #expect(pool === app[CountedPoolKey.self])
    #expect(app.buildLog.count("Pool") == 1)
    #expect(handler.requestID == "r-1")
  }

  // MARK: - Objects read in another scope

  @Test func twoObjectsMadeInOneScopeAndReadInAnotherShareOneBuild() {
    let log = BuildLog()
    let (first, second) = withDependencies {
      $0.buildLog = log
      $0.greeting = "made"
    } operation: {
      (CombinedReader(), CombinedReader())
    }
    let (a, b) = withDependencies {
      $0.requestID = "read"
    } operation: {
      (first.combined, second.combined)
    }
    #expect(a === b)
    #expect(a.name == "made/read")
    #expect(log.count("Combined") == 1)
  }

  @Test func wrappersOfOneObjectReadInAnotherScopeShareOneBuild() {
    let log = BuildLog()
    let reader = withDependencies {
      $0.buildLog = log
      $0.greeting = "made"
    } operation: {
      TwoCombinedReaders()
    }
    withDependencies {
      $0.requestID = "read"
    } operation: {
      #expect(reader.first === reader.second)
    }
    #expect(log.count("Combined") == 1)
  }

  // MARK: - Memory of long-lived scopes

  @Test func longLivedScopeDoesNotKeepTheRequestScopesWhoseObjectsItRead() {
    let app = DependencyValues(context: .default)
    var worker = app
    worker.greeting = "worker"
    let alive = withDependencies(worker) {
      var handlers: [WeakBox<RequestHandler>] = []
      for index in 0..<200 {
        var request = app
        request.requestID = "\(index)"
        let handler = request[RequestHandlerKey.self]
        #expect(handler.requestID == "\(index)")
        #expect(handler.greeting == "worker")
        handlers.append(WeakBox(handler))
      }
      return handlers.filter { $0.value != nil }.count
    }
    #expect(alive == 0)
  }

  @Test func longLivedObjectReadInManyScopesDoesNotKeepThem() {
    let app = DependencyValues(context: .default)
    let handler = app[RequestHandlerKey.self]
    var scopes: [WeakBox<DependencyStorage>] = []
    for index in 0..<200 {
      var request = app
      request.greeting = "g\(index)"
      #expect(withDependencies(request) { handler.greeting } == "g\(index)")
      scopes.append(WeakBox(request.storage))
    }
    #expect(scopes.filter { $0.value != nil }.count == 0)
  }

  @Test func reusingOneContainerVariableKeepsNoHistory() {
    var values = DependencyValues(context: .default)
    var echoes: [WeakBox<Service>] = []
    for index in 0..<200 {
      values.requestID = "\(index)"
      let echo = withDependencies(values) { DependencyValues.current[RequestEchoKey.self] }
      #expect(echo.name == "echo \(index)")
      echoes.append(WeakBox(echo))
    }
    #expect(values.storage.depth <= 1)
    // The first value was set on the root container itself, which stays; then only the latest.
    #expect(echoes.filter { $0.value != nil }.count <= 2)
  }

  @Test func reusedContainerStillSharesValuesThatReadNothingItChanges() {
    var values = DependencyValues(context: .default)
    values.greeting = "base"
    let greeter = values.greeter
    for index in 0..<5 {
      values.requestID = "\(index)"
      #expect(values.greeter === greeter)
      #expect(values[RequestEchoKey.self].name == "echo \(index)")
    }
    #expect(values.greeting == "base")
  }

  // MARK: - Concurrent sibling scopes

  /// Siblings that start together all find nothing above, and race to announce the build there:
  /// the ones that lose wait for the winner instead of building their own.
  @Test func concurrentSiblingScopesShareOneBuildOfAValueTheyDoNotChange() async {
    for round in 0..<20 {
      let app = DependencyValues(context: .default)
      let pools = await onThreads(8) { index in
        var request = app
        request.requestID = "\(round)-\(index)"
        return ObjectIdentifier(request[SlowCountedPoolKey.self])
      }
      #expect(Set(pools).count == 1)
      #expect(app.buildLog.count("SlowPool") == 1, "round \(round)")
      #expect(ObjectIdentifier(app[SlowCountedPoolKey.self]) == pools[0])
    }
  }

  /// The root's value read another request ID, so the request builds its own: its child scopes,
  /// reading it together, wait for one build kept in the request, not one build each.
  @Test func siblingsBelowAScopeThatChangedAnInputShareOneBuildThere() async {
    for round in 0..<5 {
      let app = DependencyValues(context: .default)
      #expect(app[SlowRequestEchoKey.self].name == "slow echo none")
      var changed = app
      changed.requestID = "r\(round)"
      let request = changed
      let echoes = await onThreads(4) { index in
        var child = request
        child.greeting = "child \(index)"
        return child[SlowRequestEchoKey.self]
      }
      #expect(echoes.allSatisfy { $0.name == "slow echo r\(round)" })
      #expect(Set(echoes.map(ObjectIdentifier.init)).count == 1, "round \(round)")
      #expect(request[SlowRequestEchoKey.self] === echoes[0])
      #expect(app.buildLog.count("SlowEcho") == 2, "round \(round)")
    }
  }

  @Test func siblingThatChangesWhatTheValueReadsBuildsItsOwn() async {
    let app = DependencyValues(context: .default)
    let names = await onThreads(4) { index in
      var request = app
      if index == 0 { request.greeting = "mine" }
      return request[SlowGreeterKey.self].name
    }
    #expect(names.filter { $0 == "slow greeter says mine" }.count == 1)
    #expect(names.filter { $0 == "slow greeter says hello" }.count == 3)
  }
}
