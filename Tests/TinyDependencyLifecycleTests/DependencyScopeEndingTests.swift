import Dispatch
import TestSubprocess
import Testing
import TinyDependency
import TinyDependencyLifecycle

/// Issue 35, items 4 and 5: ending an instance shuts down its own values (never shared ones or
/// overrides), ends the instances inside it first, and stops later runs and reads.
@Suite("Ending a scope instance shuts its own values down, its children's first")
struct DependencyScopeEndingTests {
  // MARK: - What is shut down

  @Test func endShutsDownTheInstancesOwnValuesInGraphOrderEachOnce() async throws {
    let (app, log) = asyncContainer()
    let processWide = app[ProcessWideKey.self]
    let handedIn = Resource("HandedIn", settings: app.asyncSettings)
    let session = app.beginScope(UserSession.self) { $0[ProcessWideKey.self] = handedIn }
    let cart = session.values[SessionCartKey.self]
    _ = session.run { DependencyValues.current[ProcessWideKey.self] }
    let report = try await session.end()
    #expect(report.order == ["SessionCartKey", "SessionClientKey"])
    #expect(log.index(of: "shutdown done Cart")! < log.index(of: "shutdown Client")!)
    #expect(cart.shutdownCount == 1)
    #expect(processWide.shutdownCount == 0)
    #expect(handedIn.shutdownCount == 0)
  }

  @Test func anInstanceSharingAValueWithTheScopeAroundLeavesItAlone() async throws {
    let (app, _) = asyncContainer()
    let shared = app[ProcessWideKey.self]
    let session = app.beginScope(UserSession.self)
    #expect(session.values[ProcessWideKey.self] === shared)
    let report = try await session.end()
    #expect(report.order.isEmpty)
    #expect(shared.shutdownCount == 0)
  }

  @Test func aSecondEndReturnsTheFirstsOutcome() async throws {
    let (app, _) = asyncContainer(failingShutdown: ["Client"])
    let session = app.beginScope(UserSession.self)
    let client = session.values[SessionClientKey.self]
    func outcome() async -> [String]? {
      do {
        try await session.end()
        return nil
      } catch {
        return (error as? ShutdownError)?.failures.map(\.key)
      }
    }
    async let first = outcome()
    async let second = outcome()
    let outcomes = await [first, second, outcome()]
    #expect(outcomes == [["SessionClientKey"], ["SessionClientKey"], ["SessionClientKey"]])
    #expect(client.shutdownCount == 1)
  }

  @Test func anAsyncKeyPreparedInAnInstanceIsShutDownWithIt() async throws {
    let (app, _) = asyncContainer()
    let session = app.beginScope(UserSession.self)
    try await session.values.prepare([PoolKey.self])
    let pool = session.values[PoolKey.self]
    let report = try await session.end()
    #expect(report.order == ["PoolKey"])
    #expect(pool.shutdownCount == 1)
  }

  // MARK: - Hierarchy

  @Test func endingAParentEndsItsOpenChildrenLatestFirst() async throws {
    let (app, log) = asyncContainer()
    let session = app.beginScope(UserSession.self)
    _ = session.values[SessionClientKey.self]
    let flows = ["a", "b", "c"].map { label in
      session.values.beginScope(Flow.self) { $0[FlowLabelKey.self] = label }
    }
    for flow in flows { _ = flow.values[FlowStepKey.self] }
    try await flows[1].end()
    let report = try await session.end()
    #expect(report.order == ["FlowStepKey", "FlowStepKey", "SessionClientKey"])
    let shutdowns = log.all.filter { $0.hasPrefix("shutdown done") }
    #expect(
      shutdowns == [
        "shutdown done Step b", "shutdown done Step c", "shutdown done Step a",
        "shutdown done Client",
      ]
    )
  }

  // MARK: - Structured

  @Test func withDependencyScopeRunsEndsAndReturns() async throws {
    let (app, _) = asyncContainer()
    let cart = try await withDependencies(app) {
      try await withDependencyScope(UserSession.self) {
        $0[FlowLabelKey.self] = "user"
      } operation: {
        DependencyValues.current[SessionCartKey.self]
      }
    }
    #expect(cart.shutdownCount == 1)
  }

  // MARK: - Adversarial

  @Test func endFromInsideRunShutsDownAndReturns() async throws {
    let (app, _) = asyncContainer()
    let session = app.beginScope(UserSession.self)
    let cart = try await session.run {
      let cart = DependencyValues.current[SessionCartKey.self]
      try await session.end()
      return cart
    }
    #expect(cart.shutdownCount == 1)
  }

  @Test func endDuringAReadLetsTheReadFinish() async throws {
    let (app, log) = asyncContainer()
    let session = app.beginScope(UserSession.self)
    // The build blocks its thread until told to go on: a Dispatch thread, not the pool's.
    let reader = Task {
      await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
          continuation.resume(returning: session.values[GatedSessionKey.self])
        }
      }
    }
    while !log.all.contains("gated build started") { await Task.yield() }
    let ending = Task { try await session.end() }
    try await Task.sleep(nanoseconds: 20_000_000)
    log.append("go on")
    let value = await reader.value
    _ = try await ending.value
    #expect(value.description == "Gated")
  }

  /// Parallel test cases, each with a session of its own, never see each other's values.
  @Test(arguments: 0..<8)
  func parallelCasesEachWithASessionSeeOnlyTheirOwn(user: Int) async throws {
    let (app, _) = asyncContainer()
    try await withDependencies(app) {
      try await withDependencyScope(UserSession.self) {
        $0[FlowLabelKey.self] = "user \(user)"
      } operation: {
        let cart = DependencyValues.current[SessionCartKey.self]
        await Task.yield()
        #expect(DependencyValues.current[SessionCartKey.self] === cart)
        #expect(DependencyValues.current[FlowLabelKey.self] == "user \(user)")
      }
    }
  }

  // MARK: - After the end

  #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test(.oneExitTestAtATime) func aReadThroughTheHandleAfterTheEndStopsNamingTheKey() async throws
    {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let (app, _) = asyncContainer()
        let session = app.beginScope(UserSession.self)
        _ = session.values[SessionCartKey.self]
        try await session.end()
        _ = session.values[SessionCartKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("SessionCartKey (scoped to UserSession) was read after"))
      #expect(message.contains("ended"))
    }

    @Test(.oneExitTestAtATime) func aFirstReadAfterTheEndStops() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let (app, _) = asyncContainer()
        let session = app.beginScope(UserSession.self)
        try await session.end()
        _ = session.values[SessionClientKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("SessionClientKey (scoped to UserSession) was read after"))
      #expect(message.contains("ended"))
    }

    @Test(.oneExitTestAtATime) func anObjectThatCapturedTheInstanceStopsAfterTheEnd() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let (app, _) = asyncContainer()
        let session = app.beginScope(UserSession.self)
        let holder = session.run { SessionCartHolder() }
        _ = holder.cart
        try await session.end()
        _ = holder.cart
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("SessionCartKey (scoped to UserSession) was read after"))
    }

    @Test(.oneExitTestAtATime) func aDetachedTaskThatOutlivesTheInstanceStopsWhenItReads()
      async throws
    {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let (app, log) = asyncContainer()
        let session = app.beginScope(UserSession.self)
        let task = session.run {
          withEscapedDependencies { escaped in
            Task.detached {
              while !log.all.contains("go on") { await Task.yield() }
              escaped.yield { _ = DependencyValues.current[SessionCartKey.self] }
            }
          }
        }
        try await session.end()
        log.append("go on")
        await task.value
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("SessionCartKey (scoped to UserSession) was read after"))
    }

    @Test(.oneExitTestAtATime) func runAfterTheEndStops() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let (app, _) = asyncContainer()
        let session = app.beginScope(UserSession.self)
        try await session.end()
        session.run {}
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("run after its UserSession instance ended"))
    }
  #endif
}
