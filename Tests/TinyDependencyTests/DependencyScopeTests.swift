import TestSubprocess
import Testing
import TinyDependency

/// Issue 35: a key scoped to a named lifetime is built once per instance of it, shared by
/// everything in the instance, and never by a sibling instance or the scopes around.
@Suite("A scoped value is built once per scope instance and never shared between instances")
struct DependencyScopeTests {
  // MARK: - Built once per instance

  @Test func everyReaderInAnInstanceSharesOneValue() async {
    let session = DependencyValues(context: .default).beginScope(Session.self) {
      $0[SessionUserKey.self] = "ada"
    }
    let direct = session.run { DependencyValues.current[CartKey.self] }
    let nested = session.run {
      withDependencies {
        $0.greeting = "nested"
      } operation: {
        DependencyValues.current[CartKey.self]
      }
    }
    let fromTasks = await session.run {
      await withTaskGroup(of: ObjectIdentifier.self) { group in
        for _ in 0..<8 {
          group.addTask { ObjectIdentifier(DependencyValues.current[CartKey.self]) }
        }
        return await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
      }
    }
    let holder = session.run { CartHolder() }
    #expect(direct.user == "ada")
    #expect(nested === direct)
    #expect(fromTasks == [ObjectIdentifier(direct)])
    #expect(holder.cart === direct)
    #expect(session.values[CartKey.self] === direct)
  }

  @Test func aNestedScopeThatOverridesAnInputBuildsItsOwnAndLeavesTheInstancesAlone() {
    let session = DependencyValues(context: .default).beginScope(Session.self) {
      $0[SessionUserKey.self] = "ada"
    }
    let overridden = session.run {
      withDependencies {
        $0[SessionUserKey.self] = "bob"
      } operation: {
        DependencyValues.current[CartKey.self]
      }
    }
    #expect(overridden.user == "bob")
    #expect(session.values[CartKey.self].user == "ada")
  }

  @Test func concurrentFirstReadsInOneInstanceBuildOnce() async {
    let session = DependencyValues(context: .default).beginScope(Session.self)
    let seen = await onThreads(8) { thread in
      session.run {
        thread.isMultiple(of: 2)
          ? ObjectIdentifier(DependencyValues.current[SlowCartKey.self])
          : withDependencies {
            $0.greeting = "thread \(thread)"
          } operation: {
            ObjectIdentifier(DependencyValues.current[SlowCartKey.self])
          }
      }
    }
    #expect(Set(seen).count == 1)
    #expect(SlowCartKey.builds.value == 1)
  }

  @Test func twoInstancesRunningAtOnceNeverShare() async {
    let app = DependencyValues(context: .default)
    let sessions = (0..<2).map { user in
      app.beginScope(Session.self) { $0[SessionUserKey.self] = "user \(user)" }
    }
    let seen = await onThreads(8) { thread in
      sessions[thread % 2].run {
        let cart = DependencyValues.current[CartKey.self]
        return cart.user == "user \(thread % 2)" ? ObjectIdentifier(cart) : nil
      }
    }
    #expect(!seen.contains(nil))
    #expect(Set(seen.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)).count == 1)
    #expect(Set(seen).count == 2)
  }

  @Test func aValueBuiltInAnInstanceIsNotSharedWithTheScopeAround() {
    let app = DependencyValues(context: .test)
    let session = app.beginScope(Session.self)
    let inSession = session.values[CartKey.self]
    // In the test context a read outside records an issue and builds in the root.
    var outside: ScopedThing?
    withKnownIssue {
      outside = app[CartKey.self]
    } matching: { issue in
      issue.description.contains("CartKey is scoped to Session")
    }
    #expect(outside != nil && outside !== inSession)
    #expect(app[CartKey.self] === outside)
    #expect(session.values[CartKey.self] === inSession)
  }

  // MARK: - Hierarchy

  @Test func aChildInstanceSeesItsParentsValuesAndOverrides() {
    let session = DependencyValues(context: .default).beginScope(Session.self) {
      $0[SessionUserKey.self] = "ada"
    }
    let first = session.values.beginScope(Checkout.self)
    let second = session.values.beginScope(Checkout.self)
    // The cart, first read in a checkout, is the session's: kept there, not in the checkout.
    let cart = first.run { DependencyValues.current[CartKey.self] }
    #expect(cart === session.values[CartKey.self])
    #expect(first.values[SessionUserKey.self] == "ada")
    #expect(first.values[PaymentKey.self].user == "ada")
    #expect(first.values[BasketKey.self] !== second.values[BasketKey.self])
    #expect(first.values[PaymentKey.self] !== second.values[PaymentKey.self])
    #expect(second.values[CartKey.self] === cart)
  }

  @Test func lifetimesNameTheirScope() {
    #expect(CartKey.lifetime.description == "scoped(Session)")
    #expect(CartKey.lifetime == .scoped(Session.self))
    #expect(CartKey.lifetime != .scoped(Checkout.self))
    #expect(CartKey.lifetime != .shared)
  }

  // MARK: - Stops

  #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test(.oneExitTestAtATime) func aReadOutsideAnyInstanceStopsNamingKeyScopeAndBeginScope()
      async throws
    {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        _ = DependencyValues(context: .default)[CartKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("CartKey is scoped to Session"))
      #expect(message.contains("beginScope(Session.self)"))
    }

    @Test(.oneExitTestAtATime) func aReadOutsideAnyInstanceStopsInPreviewsToo() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        _ = DependencyValues(context: .preview)[CartKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("CartKey is scoped to Session, but was read where no instance"))
    }

    @Test(.oneExitTestAtATime)
    func aSharedValueThatReadsAScopedOneStopsWithBothKeysLifetimesAndThePath()
      async throws
    {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let session = DependencyValues(context: .default).beginScope(Session.self)
        _ = session.values[AppShellKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("captive dependency"))
      #expect(message.contains("CaptiveAnalyticsKey (shared) reads CartKey (scoped(Session))"))
      #expect(message.contains("AppShellKey -> CaptiveAnalyticsKey -> CartKey"))
    }

    /// Issue 45, item 5: shared -> transient -> session-scoped is captive: the shared value
    /// keeps what the transient one was made from.
    @Test(.oneExitTestAtATime)
    func aSharedValueThatReadsAScopedOneThroughATransientKeyStops() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let session = DependencyValues(context: .default).beginScope(Session.self)
        _ = session.values[CaptiveThroughTransientKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("captive dependency"))
      #expect(
        message.contains("CaptiveThroughTransientKey (shared) reads CartKey (scoped(Session))")
      )
      #expect(message.contains("through CartViewKey (transient)"))
      #expect(message.contains("CaptiveThroughTransientKey -> CartViewKey -> CartKey"))
    }

    @Test(.oneExitTestAtATime) func aSessionValueThatReadsACheckoutValueStops() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let session = DependencyValues(context: .default).beginScope(Session.self)
        let checkout = session.values.beginScope(Checkout.self)
        _ = checkout.values[CaptiveSessionKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("CaptiveSessionKey (scoped(Session)) reads BasketKey (scoped(Checkout))")
      )
    }

    @Test(.oneExitTestAtATime) func beginningAChildScopeWithoutItsParentStopsWithBothNames()
      async throws
    {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        _ = DependencyValues(context: .default).beginScope(Checkout.self)
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("Checkout was begun where no instance of its parent scope Session"))
    }
  #endif
}
