import Testing
import TinyDependency
import TinyDependencyLifecycle

extension Tag {
  /// Heavier concurrency tests; CI also runs them under ThreadSanitizer and AddressSanitizer.
  @Tag static var stress: Self
}

@Suite("Stress: concurrent prepares, reads and shutdowns of async keys", .tags(.stress))
struct AsyncStressTests {
  @Test func concurrentPreparesOfOneGraphBuildEachKeyOnce() async throws {
    for _ in 0..<100 {
      let (values, log) = asyncContainer()
      try await withThrowingTaskGroup(of: Void.self) { group in
        for index in 0..<16 {
          group.addTask {
            switch index % 4 {
            case 0: try await values.prepare([FrontKey.self])
            case 1: try await values.prepare([UsersKey.self, OrdersKey.self])
            case 2: _ = try await values.prepared(PoolKey.self)
            default: try await values.prepare([OrdersKey.self, FrontKey.self, PoolKey.self])
            }
          }
        }
        try await group.waitForAll()
      }
      for name in ["Pool", "Users", "Orders", "Front"] {
        #expect(log.count("start \(name)") == 1, "\(name): \(log.all)")
      }
      try await values.shutdown()
      for name in ["Pool", "Users", "Orders", "Front"] {
        #expect(log.count("shutdown \(name)") == 1, "\(name): \(log.all)")
      }
    }
  }

  @Test func shutdownRacingPreparesShutsDownEveryValueThatWasMadeExactlyOnce() async throws {
    for round in 0..<200 {
      let (values, log) = asyncContainer()
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<4 {
          group.addTask { try? await values.prepare([FrontKey.self, NamedPoolKey.self]) }
        }
        group.addTask {
          for _ in 0..<(round % 8) { await Task.yield() }
          _ = try? await values.shutdown()
        }
      }
      for name in ["Pool", "Users", "Orders", "Front", "db-pool"] {
        let made = log.count("end \(name)")
        #expect(made <= 1, "\(name) was made \(made) times: \(log.all)")
        #expect(log.count("shutdown done \(name)") == made, "\(name): \(log.all)")
      }
    }
  }

  @Test func tenThousandRequestScopesReadPreparedValuesWhileTheyArePrepared() async throws {
    let (values, _) = asyncContainer()
    try await values.prepare([FrontKey.self])
    let wrong = await withTaskGroup(of: Int.self) { group in
      for index in 0..<10_000 {
        group.addTask {
          await withDependencies(values) {
            await withDependencies {
              $0[PrefixKey.self] = "request-\(index)"
            } operation: {
              let current = DependencyValues.current
              var wrong = current[FrontKey.self].name == "Front" ? 0 : 1
              if index % 100 == 0 {
                // Some requests prepare a value of their own, concurrently with the others.
                let pool = try? await current.prepared(NamedPoolKey.self)
                if pool?.name != "request-\(index)-pool" { wrong += 1 }
              }
              return wrong
            }
          }
        }
      }
      return await group.reduce(0, +)
    }
    #expect(wrong == 0)
    try await values.shutdown()
  }

  @Test func nothingOutlivesItsContainerAfterShutdown() async throws {
    weak var pool: Resource?
    weak var front: Resource?
    weak var stubborn: Resource?
    do {
      let (values, _) = asyncContainer(buildMilliseconds: 5)
      try await values.prepare([FrontKey.self])
      pool = values[PoolKey.self]
      front = values[FrontKey.self]
      try await values.prepare([StubbornKey.self])
      stubborn = values[StubbornKey.self]
      await #expect(throws: PreparationError.self) {
        try await values.prepare([SlowKey.self], timeout: 0.01)
      }
      try await values.shutdown()
    }
    // The builders' tasks end just after their builds settle.
    for _ in 0..<2_000 where pool != nil || front != nil || stubborn != nil {
      try await Task.sleep(nanoseconds: 1_000_000)
    }
    #expect(pool == nil)
    #expect(front == nil)
    #expect(stubborn == nil)
  }

  @Test func cancelledAndTimedOutBuildsLeakNothing() async throws {
    for round in 0..<50 {
      let (values, log) = asyncContainer(buildMilliseconds: 5)
      let task = Task {
        try await values.prepare([SlowKey.self, StubbornKey.self, FrontKey.self], timeout: 0.02)
      }
      if round % 2 == 0 { task.cancel() }
      _ = try? await task.value
      _ = try? await values.shutdown()
      // A value that a build produces after its prepare gave up is shut down when it arrives,
      // which may be after `shutdown()` returned: wait (bounded) for every one to settle.
      let names = ["Stubborn", "Pool", "Users", "Orders", "Front"]
      for _ in 0..<5_000
      where names.contains(where: { log.count("end \($0)") != log.count("shutdown done \($0)") }) {
        try await Task.sleep(nanoseconds: 1_000_000)
      }
      for name in names {
        #expect(log.count("shutdown done \(name)") == log.count("end \(name)"), "\(log.all)")
      }
    }
  }
}
