import TestSubprocess
import Testing
import TinyDependency
import TinyDependencyLifecycle

/// Issue 22, item 8: a value the container shut down is gone for every reader, also for a
/// request scope that read it before the shutdown and kept it, and for an object made there.
@Suite("Every read of a value after its shutdown stops, also in scopes that read it before")
struct ReadsAfterShutdownTests {
  #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test(.oneExitTestAtATime)
    func aRequestScopeThatReadAValueBeforeTheShutdownStops() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let (values, _) = asyncContainer()
        try await values.prepare([PoolKey.self])
        try await withDependencies(values) {
          try await withDependencies {
            $0[PrefixKey.self] = "request"
          } operation: {
            _ = DependencyValues.current[PoolKey.self]
            try await values.shutdown()
            _ = DependencyValues.current[PoolKey.self]
          }
        }
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("PoolKey was read after `shutdown()` shut it down"))
    }

    /// A synchronous value the container built over a value it shut down is retired with it.
    @Test(.oneExitTestAtATime)
    func aRequestScopeThatReadAValueBuiltOnAShutDownOneStops() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let (values, _) = asyncContainer()
        try await values.prepare([UsersKey.self])
        _ = values[UsersHandlerKey.self]
        try await withDependencies(values) {
          try await withDependencies {
            $0[PrefixKey.self] = "request"
          } operation: {
            _ = DependencyValues.current[UsersHandlerKey.self]
            try await values.shutdown()
            _ = DependencyValues.current[UsersHandlerKey.self]
          }
        }
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("UsersHandlerKey was read after `shutdown()`"))
    }

    /// An object made in a request scope keeps that scope; once the container shut the value
    /// down, the object's read stops, wherever it happens.
    @Test(.oneExitTestAtATime)
    func anObjectMadeInARequestScopeStopsWhenItReadsAfterTheShutdown() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let (values, _) = asyncContainer()
        try await values.prepare([PoolKey.self])
        let reader = withDependencies(values) {
          withDependencies {
            $0[PrefixKey.self] = "request"
          } operation: {
            let reader = PoolReader()
            _ = reader.pool
            return reader
          }
        }
        try await values.shutdown()
        withDependencies(values) { _ = reader.pool }
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("PoolKey was read after `shutdown()`"))
    }

    @Test(.oneExitTestAtATime)
    func anObjectMadeInARequestScopeStopsWhenAnotherScopeReadsItAfterTheShutdown()
      async throws
    {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let (values, _) = asyncContainer()
        try await values.prepare([PoolKey.self])
        let reader = withDependencies(values) {
          withDependencies {
            $0[PrefixKey.self] = "request"
          } operation: {
            let reader = PoolReader()
            _ = reader.pool
            return reader
          }
        }
        try await values.shutdown()
        withDependencies(values) {
          withDependencies {
            $0[OtherRequestKey.self] = 2
          } operation: {
            _ = reader.pool
          }
        }
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("PoolKey was read after `shutdown()`"))
    }
  #endif

  /// What the stops above must not cost: a scope that read the value before the shutdown still
  /// reads a value set on it, and a scope made afterwards builds a synchronous key anew.
  @Test func aScopeThatReadAShutDownValueStillReadsItsOwn() async throws {
    let (values, log) = asyncContainer()
    let old = values[CacheKey.self]
    let (reader, scope) = withDependencies(values) {
      withDependencies {
        $0[PrefixKey.self] = "request"
      } operation: {
        #expect(DependencyValues.current[CacheKey.self] === old)
        return (CacheReader(), DependencyValues.current)
      }
    }
    try await values.shutdown()
    #expect(log.count("shutdown Cache") == 1)
    var replaced = scope
    let replacement = Resource("Replacement", settings: values.asyncSettings)
    replaced[CacheKey.self] = replacement
    #expect(replaced[CacheKey.self] === replacement)
    #expect(withDependencies(replaced) { reader.cache } === replacement)
    #expect(scope[PrefixKey.self] == "request")
  }
}

/// Reads the pool through the property wrapper, in the scope it was made in.
struct PoolReader: Sendable {
  @Dependency(PoolKey.self) var pool
}

/// Reads the cache through the property wrapper, in the scope it was made in.
struct CacheReader: Sendable {
  @Dependency(CacheKey.self) var cache
}

/// A key a second request scope sets.
enum OtherRequestKey: DependencyKey {
  static let defaultValue = 0
}
