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

  /// Issue 45, item 1: a scope inside `run` that sets an input builds its own scoped value,
  /// which the instance owns all the same.
  @Test func aValueBuiltBelowTheInstanceForAnInputSetThereIsShutDownWithIt() async throws {
    let (app, log) = asyncContainer()
    let session = app.beginScope(UserSession.self) { $0[FlowLabelKey.self] = "ada" }
    let (ada, bob) = session.run {
      let ada = DependencyValues.current[LabeledCartKey.self]
      let bob = withDependencies {
        $0[FlowLabelKey.self] = "bob"
      } operation: {
        DependencyValues.current[LabeledCartKey.self]
      }
      return (ada, bob)
    }
    #expect(ada !== bob)
    #expect(bob.description == "Cart bob")
    let report = try await session.end()
    #expect(ada.shutdownCount == 1)
    #expect(bob.shutdownCount == 1)
    #expect(report.order.filter { $0 == "LabeledCartKey" }.count == 2)
    // In graph order: each cart before the client it read.
    let client = try #require(log.index(of: "shutdown Client"))
    #expect(try #require(log.index(of: "shutdown done Cart bob")) < client)
    #expect(try #require(log.index(of: "shutdown done Cart ada")) < client)
  }

  /// Issue 45, item 3: the end's report names the builds the instance's shutdown abandoned.
  @Test func theEndsReportNamesTheBuildsItAbandoned() async throws {
    let (app, log) = asyncContainer()
    let session = app.beginScope(UserSession.self)
    _ = try? await session.values.prepare([IgnoresCancellationKey.self], timeout: 0.2)
    let report = try await session.end()
    #expect(report.abandoned == ["IgnoresCancellationKey"])
    app.asyncSettings.gate.open()
    var polls = 0
    while log.count("shutdown done Late") == 0 && polls < 6_000 {
      polls += 1
      try await Task.sleep(nanoseconds: 10_000_000)
    }
    #expect(log.count("shutdown done Late") == 1)
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

    /// Issue 45, item 2: a synchronous build that finishes after the end is shut down once as
    /// it arrives, and its reader stops as a read after the end does.
    @Test(.oneExitTestAtATime) func aBuildFinishingAfterTheEndIsShutDownAndItsReaderStops()
      async throws
    {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let (app, log) = asyncContainer(buildMilliseconds: 800)
        let session = app.beginScope(UserSession.self)
        let reader = Task {
          await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
              continuation.resume(returning: session.values[SlowSessionKey.self])
            }
          }
        }
        while !log.all.contains("slow build started") { await Task.yield() }
        try await Task.sleep(nanoseconds: 150_000_000)
        try await session.end()
        _ = await reader.value
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.split(separator: "\n").filter { $0 == "shut down: Slow" }.count == 1)
      #expect(message.contains("SlowSessionKey (scoped to UserSession) was read after"))
    }

    /// Issue 45, item 6: the stop says that a child scope was begun on an ended instance.
    @Test(.oneExitTestAtATime) func beginningAChildOnAnEndedInstanceSaysSo() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let (app, _) = asyncContainer()
        let session = app.beginScope(UserSession.self)
        try await session.end()
        _ = session.values.beginScope(Flow.self)
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("Flow was begun in a UserSession instance that already ended"))
      #expect(message.contains("`beginScope(Flow.self)`"))
      #expect(message.contains("Fix: begin Flow before"))
      #expect(!message.contains("run after"))
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
