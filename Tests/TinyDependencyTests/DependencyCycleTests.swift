import TestSubprocess
import Testing
import TinyDependency

@Suite("Dependency cycles stop with their path")
struct DependencyCycleTests {
  #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test(.oneExitTestAtATime)
    func directCycleStopsWithItsPath() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        _ = DependencyValues(context: .default)[SelfReadingKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains(
          "dependency cycle in the default context: SelfReadingKey -> SelfReadingKey."
        )
      )
      #expect(message.contains("read one of these dependencies lazily"))
    }

    @Test(.oneExitTestAtATime)
    func cycleThroughTestOnlyKeysNamesTheUsersKeys() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        _ = DependencyValues(context: .test)[CycleTestOnlyA.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains(
          "in the test context: CycleTestOnlyA -> CycleTestOnlyB -> CycleTestOnlyA."
        )
      )
      #expect(message.contains("CycleTestOnlyA is read again while its own value is being built"))
      #expect(!message.contains("TestOnlyKey"))
    }

    @Test(.oneExitTestAtATime)
    func threeKeyCycleNamesEveryKeyInOrder() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        _ = DependencyValues(context: .test)[FeedKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("in the test context: FeedKey -> ClientKey -> SessionKey -> FeedKey.")
      )
    }

    @Test(.oneExitTestAtATime)
    func cycleThroughPropertyWrapperInAnInitializerIsFound() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        _ = DependencyValues.current[ModelKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("ModelKey -> RepositoryKey -> ModelKey."))
    }

    @Test(.oneExitTestAtATime)
    func transientCycleStopsToo() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        _ = DependencyValues.current[TransientLoopKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("TransientLoopKey -> TransientLoopKey."))
    }

    @Test(.oneExitTestAtATime)
    func cycleThroughAStaticContainerStopsWithItsPath() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        _ = StaticContainer.values[StaticCycleKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("StaticCycleKey -> StaticCycleKey."))
    }

    @Test(.oneExitTestAtATime)
    func cycleThroughAContainerBoundInsideABuildStopsWithItsPath() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        _ = StaticContainer.values[BoundCycleKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("BoundCycleKey -> BoundCycleKey."))
    }
  #endif
}

// MARK: - Keys

enum SelfReadingKey: DependencyKey {
  static var defaultValue: Int { DependencyValues.current[SelfReadingKey.self] + 1 }
}

/// Two keys declared with `TestDependencyKey` only, that read each other.
enum CycleTestOnlyA: TestDependencyKey {
  static var testValue: String { "a(\(DependencyValues.current[CycleTestOnlyB.self]))" }
}

enum CycleTestOnlyB: TestDependencyKey {
  static var testValue: String { "b(\(DependencyValues.current[CycleTestOnlyA.self]))" }
}

/// A key that reads the two above.
enum CycleTestOnlyReaderKey: DependencyKey {
  static var defaultValue: String { DependencyValues.current[CycleTestOnlyA.self] }
}

/// A key that reads a key declared with `TestDependencyKey` only.
enum TestOnlyReaderKey: DependencyKey {
  static var defaultValue: String { DependencyValues.current[TestOnlyLeaf.self] }
}

enum TestOnlyLeaf: TestDependencyKey {
  static let testValue = "leaf"
}

enum FeedKey: DependencyKey {
  static var defaultValue: String { "feed(\(DependencyValues.current[ClientKey.self]))" }
}

enum ClientKey: DependencyKey {
  static var defaultValue: String { "client(\(DependencyValues.current[SessionKey.self]))" }
}

enum SessionKey: DependencyKey {
  static var defaultValue: String { "session(\(DependencyValues.current[FeedKey.self]))" }
}

struct Model: Sendable {
  @Dependency(RepositoryKey.self) var repository
  var summary = ""

  init() {
    summary = repository
  }
}

enum ModelKey: DependencyKey {
  static var defaultValue: Model { Model() }
}

enum RepositoryKey: DependencyKey {
  static var defaultValue: String {
    "repository of \(DependencyValues.current[ModelKey.self].summary)"
  }
}

enum TransientLoopKey: DependencyKey {
  static var defaultValue: Int { DependencyValues.current[TransientLoopKey.self] }
  static var lifetime: DependencyLifetime { .transient }
}

/// A container in a static constant, read directly rather than through the current scope.
enum StaticContainer {
  static let values = DependencyValues(context: .default)
}

enum StaticCycleKey: DependencyKey {
  static var defaultValue: Int { StaticContainer.values[StaticCycleKey.self] + 1 }
}

enum BoundCycleKey: DependencyKey {
  static var defaultValue: Int {
    withDependencies(StaticContainer.values) { DependencyValues.current[BoundCycleKey.self] + 1 }
  }
}
