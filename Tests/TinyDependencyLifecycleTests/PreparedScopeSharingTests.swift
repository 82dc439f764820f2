import TestSubprocess
import Testing
import TinyDependency
import TinyDependencyLifecycle

@Suite("Values built on a prepared scope's own values stay in that scope")
struct PreparedScopeSharingTests {
  #if compiler(>=6.2) && (os(macOS) || os(Linux))
    /// The pool is this scope's and shut down when it ends: a value built on it must not be
    /// handed up to the container around, which has no pool of its own.
    @Test(.oneExitTestAtATime)
    func aValueBuiltOnTheScopesOwnPoolIsNotHandedUp() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let (values, _) = asyncContainer()
        _ = try await withDependencies(values) {
          try await withPreparedDependencies([PoolKey.self]) {
            DependencyValues.current[PoolUserKey.self]
          }
        }
        _ = values[PoolUserKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("PoolKey is an async key that was not prepared"))
    }
  #endif

  @Test func eachPreparedScopeBuildsOnItsOwnPool() async throws {
    let (values, _) = asyncContainer()
    var pools: [Resource] = []
    for _ in 0..<2 {
      let (pool, user) = try await withDependencies(values) {
        try await withPreparedDependencies([PoolKey.self]) {
          (DependencyValues.current[PoolKey.self], DependencyValues.current[PoolUserKey.self])
        }
      }
      #expect(user.uses.first === pool)
      #expect(pool.shutdownCount == 1)
      pools.append(pool)
    }
    #expect(pools[0] !== pools[1])
  }

  /// A pool the container prepared itself is shared with the scope, as are values built on it,
  /// and left to the container when the scope ends.
  @Test func aPoolPreparedAroundTheScopeIsStillShared() async throws {
    let (values, _) = asyncContainer()
    try await values.prepare([PoolKey.self])
    let user = values[PoolUserKey.self]
    let (pool, inner) = try await withDependencies(values) {
      try await withPreparedDependencies([PoolKey.self]) {
        (DependencyValues.current[PoolKey.self], DependencyValues.current[PoolUserKey.self])
      }
    }
    #expect(pool === values[PoolKey.self])
    #expect(inner === user)
    #expect(pool.shutdownCount == 0)
  }
}

/// A synchronous value built on the pool.
enum PoolUserKey: DependencyKey {
  static var defaultValue: Resource {
    let values = DependencyValues.current
    return Resource("PoolUser", settings: values.asyncSettings, uses: [values[PoolKey.self]])
  }
}
