import TestSubprocess
import Testing
import TinyDependency
import TinyDependencyGraph
import TinyDependencyLifecycle

@Suite("prepare builds async keys in graph order, once, with independent branches concurrently")
struct DependencyValuesPrepareTests {
  // MARK: - Order and concurrency

  @Test func dependenciesAreBuiltBeforeTheKeysThatAwaitThem() async throws {
    let (values, log) = asyncContainer(buildMilliseconds: 5)
    try await values.prepare([FrontKey.self])
    let events = log.all
    let endPool = try #require(events.firstIndex(of: "end Pool"))
    for service in ["Users", "Orders"] {
      let start = try #require(events.firstIndex(of: "start \(service)"))
      let end = try #require(events.firstIndex(of: "end \(service)"))
      #expect(endPool < start, "\(events)")
      #expect(end < events.firstIndex(of: "start Front")!, "\(events)")
    }
  }

  @Test func independentBranchesAreBuiltConcurrently() async throws {
    let (values, log) = asyncContainer(buildMilliseconds: 200)
    try await values.prepare([UsersKey.self, OrdersKey.self])
    let events = log.all
    // Both services started before either ended: they overlapped.
    let lastStart = max(
      events.firstIndex(of: "start Users")!,
      events.firstIndex(of: "start Orders")!
    )
    let firstEnd = min(events.firstIndex(of: "end Users")!, events.firstIndex(of: "end Orders")!)
    #expect(lastStart < firstEnd, "\(events)")
  }

  @Test func eachKeyIsBuiltOncePerContainerWhateverAwaitsIt() async throws {
    let (values, log) = asyncContainer(buildMilliseconds: 10)
    try await values.prepare([FrontKey.self, UsersKey.self, PoolKey.self, OrdersKey.self])
    for name in ["Pool", "Users", "Orders", "Front"] {
      #expect(log.count("start \(name)") == 1, "\(name): \(log.all)")
    }
    #expect(values[FrontKey.self].uses.map(\.uses[0]).allSatisfy { $0 === values[PoolKey.self] })
  }

  @Test func aKeyPreparedTwiceConcurrentlyIsBuiltOnce() async throws {
    let (values, log) = asyncContainer(buildMilliseconds: 50)
    async let first: Void = values.prepare([PoolKey.self])
    async let second: Void = values.prepare([PoolKey.self])
    async let third: Resource = values.prepared(PoolKey.self)
    _ = try await (first, second, third)
    #expect(log.count("start Pool") == 1)
    #expect(try await third === values[PoolKey.self])
  }

  @Test func preparingAgainBuildsNothing() async throws {
    let (values, log) = asyncContainer()
    try await values.prepare([UsersKey.self])
    try await values.prepare([UsersKey.self, PoolKey.self])
    #expect(log.count("start Pool") == 1)
    #expect(log.count("start Users") == 1)
  }

  @Test func eachContainerBuildsItsOwnValue() async throws {
    let (first, _) = asyncContainer()
    let (second, _) = asyncContainer()
    try await first.prepare([PoolKey.self])
    try await second.prepare([PoolKey.self])
    #expect(first[PoolKey.self] !== second[PoolKey.self])
  }

  @Test func aScopeThatOverridesAnInputPreparesItsOwnValue() async throws {
    let (values, _) = asyncContainer()
    try await values.prepare([NamedPoolKey.self])
    #expect(values[NamedPoolKey.self].name == "db-pool")
    var scope = values
    scope[PrefixKey.self] = "replica"
    #expect(scope.unpreparedKeys(among: [NamedPoolKey.self]).count == 1)
    try await scope.prepare([NamedPoolKey.self])
    #expect(scope[NamedPoolKey.self].name == "replica-pool")
    #expect(values[NamedPoolKey.self].name == "db-pool")
  }

  @Test func currentScopeIsPreparedByDependencyValuesCurrent() async throws {
    let (values, log) = asyncContainer()
    let name = try await withDependencies(values) {
      try await DependencyValues.current.prepare([UsersKey.self])
      return DependencyValues.current[UsersKey.self].name
    }
    #expect(name == "Users")
    #expect(values[UsersKey.self].name == "Users")
    #expect(log.count("start Users") == 1)
  }

  // MARK: - The graph

  @Test func graphHasEdgesBetweenAsyncKeysAndTheSyncKeysTheyRead() async throws {
    let (values, _) = asyncContainer()
    try await values.prepare([FrontKey.self, NamedPoolKey.self])
    _ = values[UsersHandlerKey.self]
    let edges = values.graph.edges.map(\.description)
    #expect(edges.contains("FrontKey -> UsersKey"))
    #expect(edges.contains("FrontKey -> OrdersKey"))
    #expect(edges.contains("UsersKey -> PoolKey"))
    #expect(edges.contains("OrdersKey -> PoolKey"))
    #expect(edges.contains("NamedPoolKey -> PrefixKey"))
    #expect(edges.contains("PoolKey -> AsyncSettingsKey"))  // an override read by a build
    #expect(edges.contains("UsersHandlerKey -> UsersKey"))
  }

  // MARK: - Failures

  @Test func aFailureIsThrownWithItsPath() async throws {
    let (values, _) = asyncContainer(failing: ["Pool"])
    let error = try await #require(throws: PreparationError.self) {
      try await values.prepare([UsersKey.self])
    }
    #expect(error.path == ["UsersKey", "PoolKey"])
    #expect(error.description == "UsersKey -> PoolKey: connection refused")
    #expect(error.underlyingError is Refused)
  }

  @Test func aFailureIsNotKeptSoALaterPrepareTriesAgain() async throws {
    let settings = AsyncSettings(failing: ["Pool"])
    var values = DependencyValues(context: .default)
    values.asyncSettings = settings
    await #expect(throws: PreparationError.self) { try await values.prepare([PoolKey.self]) }
    #expect(values.unpreparedKeys(among: [PoolKey.self]).count == 1)
    // The same container, now with a pool that connects: its derived copy retries.
    var retry = values
    retry.asyncSettings = AsyncSettings(log: settings.log)
    try await retry.prepare([PoolKey.self])
    #expect(retry[PoolKey.self].name == "Pool")
    #expect(settings.log.count("start Pool") == 2)
  }

  @Test func aFailedBuildInTheSameContainerIsRetried() async throws {
    let values = DependencyValues(context: .default)
    await #expect(throws: PreparationError.self) { try await values.prepare([FlakyKey.self]) }
    try await values.prepare([FlakyKey.self])
    #expect(values[FlakyKey.self] == 2)
  }

  @Test func aFailureCancelsTheSiblingsStillBuilding() async throws {
    let (values, log) = asyncContainer()
    // Without the cancellation, the slow sibling would run into the time-out.
    let error = try await #require(throws: PreparationError.self) {
      try await values.prepare([SlowKey.self, FailingKey.self], timeout: 3_600)
    }
    #expect(error.path == ["FailingKey"])
    #expect(log.count("start Slow") == 1)
    #expect(values.unpreparedKeys(among: [SlowKey.self]).count == 1)
  }

  @Test func cancellingTheCallerCancelsItsBuilds() async throws {
    let (values, log) = asyncContainer()
    let task = Task { try await values.prepare([SlowKey.self]) }
    while log.count("start Slow") == 0 { await Task.yield() }
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(values.unpreparedKeys(among: [SlowKey.self]).count == 1)
  }

  @Test func aBuildThatHangsFailsAtTheDeadlineNamingItsKey() async throws {
    let (values, _) = asyncContainer()
    let error = try await #require(throws: PreparationError.self) {
      try await values.prepare([SlowKey.self], timeout: 0.2)
    }
    #expect(error.path == ["SlowKey"])
    #expect("\(error)".contains("SlowKey did not finish preparing within 0.2 seconds"))
    guard case .timedOut(let seconds) = error.reason else {
      Issue.record("expected a time-out, got \(error.reason)")
      return
    }
    #expect(seconds == 0.2)
  }

  /// The error of preparing `key`, which awaits SlowKey, with a deadline of 10 seconds. When
  /// SlowKey's builder did not get to start before the deadline (a run that keeps the
  /// concurrency pool busy held it back for 10 seconds and more), the path can only name `key`,
  /// and the same preparation is tried again, three times at most: a path that never names
  /// SlowKey still fails the test.
  func deadlineError(preparing key: any AsyncDependencyKey.Type) async throws -> PreparationError {
    var error: PreparationError?
    for _ in 1...3 where error.map({ $0.path.count < 2 }) ?? true {
      let (values, _) = asyncContainer()
      error = try await #require(throws: PreparationError.self) {
        try await values.prepare([key], timeout: 10)
      }
    }
    return error!
  }

  @Test func theDeadlineNamesTheBuildThatKeepsTheOthersWaiting() async throws {
    let error = try await deadlineError(preparing: WaitsForSlowKey.self)
    #expect(error.path == ["WaitsForSlowKey", "SlowKey"])
    #expect("\(error)".contains("SlowKey did not finish preparing within 10.0 seconds"))
  }

  @Test func theDeadlineNamesTheBuildThatKeepsWaitingOneOfTwoAwaitedTogether() async throws {
    let error = try await deadlineError(preparing: WaitsForSlowAndQuickKey.self)
    #expect(error.path == ["WaitsForSlowAndQuickKey", "SlowKey"])
    #expect("\(error)".contains("SlowKey did not finish preparing within 10.0 seconds"))
  }

  @Test func aValueMadeAfterItsDeadlineIsShutDownNotLeaked() async throws {
    let (values, log) = asyncContainer(buildMilliseconds: 300)
    await #expect(throws: PreparationError.self) {
      try await values.prepare([StubbornKey.self], timeout: 0.05)
    }
    // The stubborn build ends later anyway; its value is nobody's, so it is shut down.
    while log.count("shutdown done Stubborn") == 0 { try await Task.sleep(nanoseconds: 10_000_000) }
    #expect(values.unpreparedKeys(among: [StubbornKey.self]).count == 1)
  }

  // MARK: - Cycles

  #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test(.oneExitTestAtATime)
    func twoAsyncKeysAwaitingEachOtherStopWithThePath() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        try await DependencyValues(context: .default).prepare([CycleAKey.self])
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains(
          "dependency cycle in the default context: CycleAKey -> CycleBKey -> CycleAKey."
        )
      )
    }

    @Test(.oneExitTestAtATime)
    func anAsyncKeyAwaitingItselfStops() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        try await DependencyValues(context: .default).prepare([SelfAwaitingKey.self])
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("SelfAwaitingKey -> SelfAwaitingKey."))
    }

    @Test(.oneExitTestAtATime)
    func aCycleThroughASyncKeyStops() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        try await DependencyValues(context: .default).prepare([LoopingPoolKey.self])
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("LoopingPoolKey -> LoopingConfigKey -> LoopingPoolKey."))
    }

    @Test(.oneExitTestAtATime)
    func aCycleThroughAnotherAsyncBuildAndASyncKeyStops() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        try await DependencyValues(context: .default).prepare([OuterLoopKey.self])
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("OuterLoopKey -> InnerLoopKey -> LoopBridgeKey -> OuterLoopKey."))
    }

    @Test(.oneExitTestAtATime)
    func aCycleThroughOneOfTwoKeysPreparedTogetherStops() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        try await DependencyValues(context: .default).prepare([PairPreparingKey.self], timeout: 5)
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("PairPreparingKey -> PairLoopingKey -> PairPreparingKey."))
    }
  #endif
}

/// Counts the attempts to build ``FlakyKey`` in one container.
enum AttemptsKey: DependencyKey {
  static var defaultValue: QueueLocked<Int> { QueueLocked(0) }
}

/// Fails on its first attempt in a container, then succeeds with the attempt's number.
enum FlakyKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Int {
    let attempt = DependencyValues.current[AttemptsKey.self].withLock {
      $0 += 1
      return $0
    }
    if attempt == 1 { throw Refused() }
    return attempt
  }
}
