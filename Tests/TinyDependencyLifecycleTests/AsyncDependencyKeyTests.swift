import TestSubprocess
import Testing
import TinyDependency
import TinyDependencyGraph
import TinyDependencyLifecycle

@Suite("Async keys are prepared, then read synchronously")
struct AsyncDependencyKeyTests {
  // MARK: - Reading

  @Test func preparedValueIsReadSynchronouslyAndIsTheSameEveryTime() async throws {
    let (values, log) = asyncContainer()
    try await values.prepare([PoolKey.self])
    let first = values[PoolKey.self]
    let second = values[PoolKey.self]
    #expect(first === second)
    #expect(first.name == "Pool")
    #expect(log.count("start Pool") == 1)
  }

  @Test func wrapperReadsPreparedValueInABoundScope() async throws {
    let (values, _) = asyncContainer()
    try await values.prepare([UsersKey.self])
    let name = withDependencies(values) {
      Dependency(UsersKey.self).wrappedValue.name
    }
    #expect(name == "Users")
  }

  @Test func scopeDerivedFromAPreparedContainerReusesItsValue() async throws {
    let (values, log) = asyncContainer()
    try await values.prepare([PoolKey.self])
    let pool = values[PoolKey.self]
    let inScope = withDependencies(values) {
      withDependencies {
        $0[PrefixKey.self] = "other"  // not read by PoolKey
      } operation: {
        DependencyValues.current[PoolKey.self]
      }
    }
    #expect(inScope === pool)
    #expect(log.count("start Pool") == 1)
  }

  @Test func anOverrideNeedsNoPreparation() {
    var values = DependencyValues(context: .default)
    values[LiveOnlyKey.self] = "set"
    #expect(values[LiveOnlyKey.self] == "set")
    #expect(values.unpreparedKeys(among: [LiveOnlyKey.self]).isEmpty)
  }

  // MARK: - Contexts

  @Test(arguments: [
    (DependencyContext.default, "live"), (.test, "test"), (.preview, "preview"),
  ])
  func eachContextMakesItsOwnValue(context: DependencyContext, expected: String) async throws {
    let values = DependencyValues(context: context)
    try await values.prepare([ContextualKey.self])
    #expect(values[ContextualKey.self] == expected)
  }

  @Test func testAndPreviewFallBackToTheLiveBuilder() async throws {
    for context in [DependencyContext.test, .preview] {
      let values = DependencyValues(context: context)
      try await values.prepare([LiveOnlyKey.self])
      #expect(values[LiveOnlyKey.self] == "live")
    }
  }

  @Test func tracingListsAnAsyncKeyAsMissingWithoutBuildingIt() {
    let graph = DependencyGraph.trace([LiveOnlyKey.self], context: .test)
    // Tracing reads synchronously: an async key shows up as a missing value, not a build.
    #expect(graph.missingInputs.map(\.name) == ["LiveOnlyKey"])
  }

  // MARK: - Unprepared keys

  @Test func unpreparedKeysListsOnlyAsyncKeysWithoutAValue() async throws {
    let (values, log) = asyncContainer()
    let keys: [any DependencyKey.Type] = [PoolKey.self, PrefixKey.self, UsersKey.self]
    #expect(values.unpreparedKeys(among: keys).map { "\($0)" } == ["PoolKey", "UsersKey"])
    #expect(log.all.isEmpty, "listing built something: \(log.all)")
    try await values.prepare([PoolKey.self])
    #expect(values.unpreparedKeys(among: keys).map { "\($0)" } == ["UsersKey"])
  }

  #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test(.oneExitTestAtATime)
    func readingAnUnpreparedKeyStopsWithItsNameAndTheFix() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        _ = DependencyValues(context: .default)[PoolKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("PoolKey is an async key that was not prepared in the default context")
      )
      #expect(message.contains("try await values.prepare([PoolKey.self])"))
      #expect(message.contains("unpreparedKeys(among:)"))
    }

    @Test(.oneExitTestAtATime)
    func readingAKeyWhoseBuildIsStillRunningSaysSo() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let values = DependencyValues(context: .default)
        let task = Task { try await values.prepare([SlowKey.self]) }
        try await Task.sleep(nanoseconds: 200_000_000)
        _ = values[SlowKey.self]
        task.cancel()
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("SlowKey is an async key that is still being prepared"))
    }
  #endif
}
