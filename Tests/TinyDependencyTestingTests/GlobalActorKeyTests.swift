import TestSubprocess
import Testing
import TinyDependency
import TinyDependencyGraph
import TinyDependencyLifecycle
import TinyDependencyTesting
import TinyDependencyValidation

/// A server's own global actor, as an app would declare it.
@globalActor
actor DatabaseActor {
  static let shared = DatabaseActor()
}

/// A store that may only be made and used on `DatabaseActor`.
@DatabaseActor
final class Store {
  nonisolated static let built = ValidationCounter()
  let name: String

  init(name: String) {
    DatabaseActor.shared.preconditionIsolated()
    Store.built.withLock { $0 += 1 }
    self.name = name
  }

  func query() -> String { "\(name): 3 rows" }
}

/// A key whose value is made on `DatabaseActor`, prepared, then read there synchronously.
enum StoreKey: AsyncDependencyKey {
  @DatabaseActor static func makeDefault() async throws -> Store { Store(name: "live") }
  @DatabaseActor static func makeTest() async throws -> Store { Store(name: "test") }
}

/// Made on the actor too, and without a test value of its own.
enum LiveOnlyStoreKey: AsyncDependencyKey {
  @DatabaseActor static func makeDefault() async throws -> Store { Store(name: "live only") }
}

/// A synchronous key that reads the store: traced through it by the validator.
enum ReportServiceKey: DependencyKey {
  static var defaultValue: String { "report(\(ObjectIdentifier(DependencyValues.current.store)))" }
  static var testValue: String { defaultValue }
}

extension DependencyValues {
  var store: Store {
    get { self[StoreKey.self] }
    set { self[StoreKey.self] = newValue }
  }
}

/// Code isolated to the actor reads the store synchronously.
@DatabaseActor
final class ReportJob {
  @Dependency(StoreKey.self) var store

  func run() -> String { store.query() }
}

@DatabaseActor
func queryStore() -> String { DependencyValues.current.store.query() }

@Suite(
  "Keys isolated to any global actor: prepared on the actor, read there synchronously",
  .serialized  // the tests count the stores made
)
struct GlobalActorKeyTests {
  @Test func theLiveValueIsMadeOnTheActorOnceAndReadThereSynchronously() async throws {
    let values = DependencyValues(context: .default)
    let before = Store.built.withLock { $0 }
    try await values.prepare([StoreKey.self])
    try await values.prepare([StoreKey.self])
    #expect(Store.built.withLock { $0 } == before + 1)
    let (direct, job) = await withDependencies(values) {
      (await queryStore(), await ReportJob().run())
    }
    #expect(direct == "live: 3 rows")
    #expect(job == "live: 3 rows")
  }

  @Test func theTestValueIsMadeOnTheActorToo() async throws {
    try await DependencyValues.current.prepare([StoreKey.self])
    #expect(await queryStore() == "test: 3 rows")
  }

  @Test func aTestValueSetOnTheActorIsReadThere() async throws {
    let store = await Store(name: "set")
    await withDependencies {
      $0.store = store
    } operation: {
      #expect(await queryStore() == "set: 3 rows")
    }
  }

  @Test func preparingAKeyWithoutATestValueIsAnIssueInStrictMode() async throws {
    try await withKnownIssue {
      try await withDependencies {
        $0.context = .test
      } operation: {
        try await runTraits([.strictDependencies]) {
          try await DependencyValues.current.prepare([LiveOnlyStoreKey.self])
        }
      }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("LiveOnlyStoreKey has no makeTest()") }
    }
  }

  @Test func theValidatorTracesSuchKeysWithoutMakingLiveValues() throws {
    let before = Store.built.withLock { $0 }
    let report = DependencyValidator.validate([ReportServiceKey.self, StoreKey.self])
    #expect(report.findings.map(\.kind) == [.unpreparedAsyncKey])
    #expect(report.findings.first?.key == "StoreKey")
    #expect(report.graph.edges.map(\.description).contains("ReportServiceKey -> StoreKey"))
    #expect(Store.built.withLock { $0 } == before)
  }

  #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test(.oneExitTestAtATime) func aReadOfAnUnpreparedKeyStopsWithTheFix() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        _ = await withDependencies(DependencyValues(context: .default)) { await queryStore() }
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("StoreKey is an async key that was not prepared"))
      #expect(message.contains("prepare([StoreKey.self])"))
    }
  #endif
}
