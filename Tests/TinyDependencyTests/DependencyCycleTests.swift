import Testing
import TinyDependency

@Suite("Dependency cycles stop with their path")
struct DependencyCycleTests {
  @Test func directCycleStopsWithItsPath() async throws {
    let result = try await #require(
      processExitsWith: .failure,
      observing: [\.standardErrorContent]
    ) {
      _ = DependencyValues(context: .default)[SelfReadingKey.self]
    }
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(
      message.contains("dependency cycle in the default context: SelfReadingKey -> SelfReadingKey.")
    )
    #expect(message.contains("read one of these dependencies lazily"))
  }

  @Test func threeKeyCycleNamesEveryKeyInOrder() async throws {
    let result = try await #require(
      processExitsWith: .failure,
      observing: [\.standardErrorContent]
    ) {
      _ = DependencyValues(context: .test)[FeedKey.self]
    }
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(message.contains("in the test context: FeedKey -> ClientKey -> SessionKey -> FeedKey."))
  }

  @Test func cycleThroughPropertyWrapperInAnInitializerIsFound() async throws {
    let result = try await #require(
      processExitsWith: .failure,
      observing: [\.standardErrorContent]
    ) {
      _ = DependencyValues.current[ModelKey.self]
    }
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(message.contains("ModelKey -> RepositoryKey -> ModelKey."))
  }

  @Test func transientCycleStopsToo() async throws {
    let result = try await #require(
      processExitsWith: .failure,
      observing: [\.standardErrorContent]
    ) {
      _ = DependencyValues.current[TransientLoopKey.self]
    }
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(message.contains("TransientLoopKey -> TransientLoopKey."))
  }

  @Test func readingTheSameKeyForAnotherContextIsNoCycle() async {
    await #expect(processExitsWith: .success) {
      let value = DependencyValues(context: .test)[WrappingKey.self]
      precondition(value == "wrapped(live)")
    }
  }

  @Test func readingTheSameKeyTwiceInOneBuildIsNoCycle() {
    let values = DependencyValues(context: .default)
    #expect(values[TwiceReaderKey.self] == "leaf+leaf")
  }
}

enum SelfReadingKey: DependencyKey {
  static var defaultValue: Int { DependencyValues.current[SelfReadingKey.self] + 1 }
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

enum TwiceReaderKey: DependencyKey {
  static var defaultValue: String {
    let values = DependencyValues.current
    return values.leaf + "+" + values.leaf
  }
}

/// A test value that wraps the live one: it reads its own key, in another context.
enum WrappingKey: DependencyKey {
  static let defaultValue = "live"
  static var testValue: String {
    withDependencies {
      $0.context = .default
    } operation: {
      "wrapped(\(DependencyValues.current[WrappingKey.self]))"
    }
  }
}
