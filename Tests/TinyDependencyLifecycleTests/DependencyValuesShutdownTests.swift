import Dispatch
import TestSubprocess
import Testing
import TinyDependency
import TinyDependencyLifecycle

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

@Suite("shutdown closes values in reverse dependency order, each once")
struct DependencyValuesShutdownTests {
  // MARK: - Order

  @Test func aValueIsShutDownBeforeEverythingItRead() async throws {
    let (values, log) = asyncContainer(buildMilliseconds: 5)
    try await values.prepare([FrontKey.self])
    let report = try await values.shutdown()
    #expect(report.order.first == "FrontKey")
    #expect(report.order.last == "PoolKey")
    #expect(Set(report.order) == ["FrontKey", "UsersKey", "OrdersKey", "PoolKey"])
    let events = log.all
    let poolShutdown = try #require(events.firstIndex(of: "shutdown Pool"))
    let appDone = try #require(events.firstIndex(of: "shutdown done Front"))
    for service in ["Users", "Orders"] {
      let start = try #require(events.firstIndex(of: "shutdown \(service)"))
      let done = try #require(events.firstIndex(of: "shutdown done \(service)"))
      #expect(appDone < start, "\(events)")
      #expect(done < poolShutdown, "\(events)")
    }
  }

  @Test func independentValuesAreShutDownConcurrently() async throws {
    let (values, log) = asyncContainer(buildMilliseconds: 100)
    try await values.prepare([UsersKey.self, OrdersKey.self])
    try await values.shutdown()
    let events = log.all
    let lastStart = max(
      events.firstIndex(of: "shutdown Users")!,
      events.firstIndex(of: "shutdown Orders")!
    )
    let firstDone = min(
      events.firstIndex(of: "shutdown done Users")!,
      events.firstIndex(of: "shutdown done Orders")!
    )
    #expect(lastStart < firstDone, "\(events)")
  }

  @Test func aValueReadThroughASyncKeyStillWaitsForItsReader() async throws {
    let (values, _) = asyncContainer()
    try await values.prepare([UsersKey.self])
    // UsersHandlerKey is not a resource, but it read Users; Users still goes before Pool.
    _ = values[UsersHandlerKey.self]
    let report = try await values.shutdown()
    #expect(report.order == ["UsersKey", "PoolKey"])
  }

  @Test func synchronousValuesAreShutDownTooAfterTheValuesThatReadThem() async throws {
    let (values, _) = asyncContainer()
    try await values.prepare([CachedUsersKey.self])
    let cache = values[CacheKey.self]
    let report = try await values.shutdown()
    #expect(report.order == ["CachedUsersKey", "CacheKey"])
    #expect(cache.shutdownCount == 1)
  }

  // MARK: - Once

  @Test func eachValueIsShutDownOnceEvenWhenShutdownIsCalledConcurrently() async throws {
    let (values, log) = asyncContainer(buildMilliseconds: 20)
    try await values.prepare([FrontKey.self])
    let app = values[FrontKey.self]
    async let first = values.shutdown()
    async let second = values.shutdown()
    let reports = try await [first, second]
    #expect(reports[0].order == reports[1].order)
    #expect(app.shutdownCount == 1)
    #expect(log.count("shutdown Pool") == 1)
    let again = try await values.shutdown()
    #expect(again.order == reports[0].order)
    #expect(log.count("shutdown Pool") == 1)
  }

  @Test func overridesAreNotShutDown() async throws {
    let (base, log) = asyncContainer()
    var values = base
    let given = Resource("Given", settings: values.asyncSettings)
    values[PoolKey.self] = given
    try await values.prepare([UsersKey.self])
    let report = try await values.shutdown()
    #expect(report.order == ["UsersKey"])
    #expect(given.shutdownCount == 0)
    #expect(log.count("shutdown Given") == 0)
  }

  // MARK: - Errors

  @Test func failuresAreCollectedWithKeyNamesAndDoNotStopTheOthers() async throws {
    let (values, log) = asyncContainer(failingShutdown: ["Users", "Pool"])
    try await values.prepare([UsersKey.self, OrdersKey.self])
    let error = try await #require(throws: ShutdownError.self) { try await values.shutdown() }
    #expect(Set(error.failures.map(\.key)) == ["UsersKey", "PoolKey"])
    #expect(error.failures.allSatisfy { $0.error is Refused })
    #expect(error.report.order.count == 3)
    #expect(log.count("shutdown done Orders") == 1)
    #expect("\(error)".contains("shutdown failed: PoolKey: connection refused"))
  }

  // MARK: - Shutdown while preparing

  @Test func shutdownWhilePreparingCancelsTheBuildAndRefusesNewOnes() async throws {
    let (values, log) = asyncContainer()
    let preparing = Task { try await values.prepare([SlowKey.self]) }
    while log.count("start Slow") == 0 { await Task.yield() }
    try await values.shutdown()
    await #expect(throws: (any Error).self) { try await preparing.value }
    let error = try await #require(throws: PreparationError.self) {
      try await values.prepare([PoolKey.self])
    }
    #expect(error.description.contains("the container was shut down"))
    #expect(log.count("start Pool") == 0)
  }

  @Test func aValueBuiltDespiteShutdownIsShutDownToo() async throws {
    let (values, log) = asyncContainer(buildMilliseconds: 100)
    let preparing = Task { try await values.prepare([StubbornKey.self]) }
    while log.count("start Stubborn") == 0 { await Task.yield() }
    try await values.shutdown()
    // The stubborn build ignored its cancellation and finished; its value was not leaked.
    #expect(log.count("shutdown done Stubborn") == 1)
    _ = try? await preparing.value
  }

  @Test func shutdownAfterATimedOutPrepareDoesNotWaitForTheBuildItGaveUpOn() async throws {
    let (values, log) = asyncContainer()
    try await values.prepare([PoolKey.self])
    let error = try await #require(throws: PreparationError.self) {
      try await values.prepare([IgnoresCancellationKey.self], timeout: 0.2)
    }
    #expect(error.description.contains("IgnoresCancellationKey"))
    let started = DispatchTime.now().uptimeNanoseconds
    let report = try await values.shutdown()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    // Not waiting for the build means returning while it is held; 20 s leaves room for a busy
    // pool, and is short of the 30 s it waited before.
    #expect(seconds < 20, "shutdown waited \(seconds) s; the prepare gave the build 0.2 s")
    #expect(log.count("end Late") == 0)
    #expect(report.order == ["PoolKey"])
    #expect(report.abandoned == ["IgnoresCancellationKey"])
    #expect(report.description.contains("abandoned: IgnoresCancellationKey (still building"))
    #expect(log.count("shutdown done Pool") == 1)
    // Its value, when it arrives, is shut down then, once, and not kept.
    values.asyncSettings.gate.open()
    try await expectLateValueShutDownOnce(log)
    #expect(values.existingValue(of: IgnoresCancellationKey.self) == nil)
  }

  @Test func aGracePeriodBoundsTheWaitForABuildAPrepareStillAwaits() async throws {
    let (values, log) = asyncContainer()
    try await values.prepare([PoolKey.self])
    let preparing = Task { try await values.prepare([IgnoresCancellationKey.self]) }
    while log.count("start Late") == 0 { try await Task.sleep(nanoseconds: 1_000_000) }
    let started = DispatchTime.now().uptimeNanoseconds
    let report = try await values.shutdown(gracePeriod: 0.1)
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    #expect(seconds < 20, "shutdown waited \(seconds) s; the grace period was 0.1 s")
    #expect(log.count("end Late") == 0)
    #expect(report.order == ["PoolKey"])
    #expect(report.abandoned == ["IgnoresCancellationKey"])
    let error = try await #require(throws: PreparationError.self) { try await preparing.value }
    #expect(error.description.contains("the container was shut down"))
    values.asyncSettings.gate.open()
    try await expectLateValueShutDownOnce(log)
  }

  @Test func aBuildThatEndsWithinTheGracePeriodIsNotAbandoned() async throws {
    let (values, log) = asyncContainer()
    let preparing = Task { try await values.prepare([IgnoresCancellationKey.self]) }
    while log.count("start Late") == 0 { try await Task.sleep(nanoseconds: 1_000_000) }
    let shuttingDown = Task { try await values.shutdown(gracePeriod: 600) }
    try await Task.sleep(nanoseconds: 50_000_000)
    values.asyncSettings.gate.open()
    let report = try await shuttingDown.value
    #expect(report.abandoned.isEmpty)
    // Shut down as it arrived, before the shutdown returned.
    #expect(log.count("shutdown done Late") == 1)
    _ = try? await preparing.value
  }

  /// Issue 45, item 4: a value shut down as it arrives within the grace period is in the report.
  @Test func aValueShutDownWithinTheGracePeriodIsInTheReport() async throws {
    let (values, log) = asyncContainer()
    let preparing = Task { try await values.prepare([IgnoresCancellationKey.self]) }
    while log.count("start Late") == 0 { try await Task.sleep(nanoseconds: 1_000_000) }
    let shuttingDown = Task { try await values.shutdown(gracePeriod: 3) }
    try await Task.sleep(nanoseconds: 400_000_000)
    values.asyncSettings.gate.open()
    let report = try await shuttingDown.value
    #expect(log.count("shutdown done Late") == 1)
    #expect(report.order == ["IgnoresCancellationKey"])
    #expect(report.abandoned.isEmpty)
    _ = try? await preparing.value
  }

  /// Waits up to 60 s for the late value's shutdown, then checks that it ran once.
  private func expectLateValueShutDownOnce(_ log: EventLog) async throws {
    var polls = 0
    while log.count("shutdown done Late") == 0 && polls < 6_000 {
      polls += 1
      try await Task.sleep(nanoseconds: 10_000_000)
    }
    try await Task.sleep(nanoseconds: 100_000_000)
    #expect(log.count("shutdown Late") == 1)
  }

  // MARK: - Scopes

  @Test func aPreparedScopeShutsDownItsOwnValuesWhenItEnds() async throws {
    let (values, log) = asyncContainer()
    try await values.prepare([PoolKey.self])
    let users = try await withDependencies(values) {
      try await withPreparedDependencies([UsersKey.self]) {
        DependencyValues.current[UsersKey.self]
      }
    }
    #expect(users.shutdownCount == 1)
    #expect(log.count("shutdown Pool") == 0, "the pool belongs to the container around")
    try await values.shutdown()
    #expect(log.count("shutdown Pool") == 1)
    #expect(log.count("shutdown Users") == 1)
  }

  @Test func aPreparedScopeShutsDownEvenWhenItsOperationThrows() async throws {
    let (values, log) = asyncContainer()
    await #expect(throws: Refused.self) {
      try await withDependencies(values) {
        try await withPreparedDependencies([PoolKey.self]) {
          throw Refused()
        }
      }
    }
    #expect(log.count("shutdown Pool") == 1)
  }

  @Test func aPreparedScopeGetsItsOverrides() async throws {
    let (values, _) = asyncContainer()
    let name = try await withDependencies(values) {
      try await withPreparedDependencies([NamedPoolKey.self]) {
        $0[PrefixKey.self] = "tenant"
      } operation: {
        DependencyValues.current[NamedPoolKey.self].name
      }
    }
    #expect(name == "tenant-pool")
    #expect(values.unpreparedKeys(among: [NamedPoolKey.self]).count == 1)
  }

  // MARK: - Reads after shutdown

  #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test(.oneExitTestAtATime)
    func readingAValueAfterShutdownStopsWithItsName() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let values = DependencyValues(context: .default)
        try await values.prepare([UsersKey.self])
        try await values.shutdown()
        _ = values[UsersKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("UsersKey was read after `shutdown()` shut it down"))
    }

    @Test(.oneExitTestAtATime)
    func readingAValueThatReadAShutDownValueStops() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let values = DependencyValues(context: .default)
        try await values.prepare([UsersKey.self])
        _ = values[UsersHandlerKey.self]
        try await values.shutdown()
        _ = values[UsersHandlerKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("UsersHandlerKey was read after `shutdown()`"))
    }

    @Test(.oneExitTestAtATime)
    func aScopeMadeFromAShutDownContainerStopsToo() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        var values = DependencyValues(context: .default)
        try await values.prepare([PoolKey.self])
        try await values.shutdown()
        values[PrefixKey.self] = "later"
        _ = values[PoolKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("PoolKey was read after `shutdown()`"))
    }

    /// A scope made from the container builds a synchronous key anew, as `shutdown()` documents,
    /// whether or not it changed one of its inputs: the container itself must not keep that
    /// value, or its own reads would return it instead of stopping.
    @Test(.oneExitTestAtATime)
    func aScopeMadeFromAShutDownContainerBuildsItsOwnAndTheContainerStillStops() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let (values, log) = asyncContainer()
        let old = values[CacheKey.self]
        try await values.shutdown()
        for changesAnInput in [false, true] {
          var scope = values
          scope[PrefixKey.self] = "later"
          if changesAnInput { scope.asyncSettings = AsyncSettings(log: log) }
          let fresh = scope[CacheKey.self]
          guard fresh !== old, scope[CacheKey.self] === fresh else { exit(0) }
        }
        guard log.count("shutdown Cache") == 1 else { exit(0) }
        _ = "both scopes built their own\n".withCString { write(2, $0, strlen($0)) }
        _ = values[CacheKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("both scopes built their own"))
      #expect(message.contains("CacheKey was read after `shutdown()`"))
    }
  #endif

  @Test func aScopeThatOverridesAShutDownKeyReadsItsOwnValue() async throws {
    let (values, log) = asyncContainer()
    _ = values[CacheKey.self]
    try await values.shutdown()
    var scope = values
    scope[CacheKey.self] = Resource("Replacement", settings: values.asyncSettings)
    #expect(scope[CacheKey.self].description == "Replacement")
    #expect(log.count("shutdown Cache") == 1)
  }
}
