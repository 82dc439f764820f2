import Dispatch
import Synchronization
import Testing
import TinyDependency

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

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

  @Test func cycleAcrossTwoThreadsStopsInsteadOfHanging() async throws {
    let result = try await #require(
      processExitsWith: .failure,
      observing: [\.standardErrorContent]
    ) {
      let values = DependencyValues(context: .default)
      _ = onThreads(2) { index in
        index == 0 ? values[NorthKey.self] : values[SouthKey.self]
      }
    }
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(
      message.contains("NorthKey -> SouthKey -> NorthKey")
        || message.contains("SouthKey -> NorthKey -> SouthKey")
    )
    #expect(message.contains("different threads"))
  }

  @Test func cycleAcrossThreadsThroughNestedBuildsNamesEveryKey() async throws {
    let result = try await #require(
      processExitsWith: .failure,
      observing: [\.standardErrorContent]
    ) {
      let values = DependencyValues(context: .default)
      _ = onThreads(2) { index in
        index == 0 ? values[CrossAKey.self] : values[CrossCKey.self]
      }
    }
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(
      message.contains("CrossAKey -> CrossBKey -> CrossCKey -> CrossAKey")
        || message.contains("CrossCKey -> CrossAKey -> CrossBKey -> CrossCKey")
    )
  }

  @Test func blockingHandOffToAnotherThreadIsReportedAfterATimeout() async throws {
    let result = try await #require(
      processExitsWith: .exitCode(3),
      observing: [\.standardErrorContent]
    ) {
      exitAfter(seconds: 8) { _ = DependencyValues(context: .default)[HandOffKey.self] }
    }
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(message.contains("HandOffKey -> EchoKey -> HandOffKey"))
    #expect(message.contains("blocking hand-off"))
  }

  @Test func handOffThroughAPropertyWrapperIsReportedAfterATimeout() async throws {
    let result = try await #require(
      processExitsWith: .exitCode(3),
      observing: [\.standardErrorContent]
    ) {
      exitAfter(seconds: 8) { _ = DependencyValues(context: .default)[WrapperHandOffKey.self] }
    }
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(message.contains("WrapperHandOffKey -> EchoBackKey -> WrapperHandOffKey"))
  }

  @Test func blockingHandOffThroughTheProcessRootIsReportedAfterATimeout() async throws {
    let result = try await #require(
      processExitsWith: .exitCode(3),
      observing: [\.standardErrorContent]
    ) {
      exitAfter(seconds: 8) { _ = DependencyValues.current[RootHandOffKey.self] }
    }
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(message.contains("RootHandOffKey"))
    #expect(message.contains("blocking hand-off"))
  }

  @Test func slowBuildWithAFireAndForgetTaskReadingItsKeyIsNoCycle() async {
    await #expect(processExitsWith: .success) {
      let values = DependencyValues(context: .default)
      precondition(values[SlowLauncherKey.self] == "launched slowly")
      let echoed = await SlowLauncherKey.task.withLock { $0 }?.value
      precondition(echoed == "echo(launched slowly)")
    }
  }

  @Test func slowBuildReadByManyThreadsIsWarnedOfOnceAndEveryReadGetsTheValue() async throws {
    let result = try await #require(
      processExitsWith: .success,
      observing: [\.standardErrorContent]
    ) {
      let values = DependencyValues(context: .default)
      let seen = onThreads(4) { _ in values[SixSecondKey.self] }
      precondition(seen == Array(repeating: "slow", count: 4))
    }
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    let warnings = message.split(
      separator: "TinyDependency: warning",
      omittingEmptySubsequences: false
    )
    #expect(warnings.count - 1 == 1)
    #expect(message.contains("If the build is only slow, this read goes on waiting for it."))
  }

  @Test func cycleThroughAStaticContainerStopsWithItsPath() async throws {
    let result = try await #require(
      processExitsWith: .failure,
      observing: [\.standardErrorContent]
    ) {
      _ = StaticContainer.values[StaticCycleKey.self]
    }
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(message.contains("StaticCycleKey -> StaticCycleKey."))
  }

  @Test func cycleThroughAContainerBoundInsideABuildStopsWithItsPath() async throws {
    let result = try await #require(
      processExitsWith: .failure,
      observing: [\.standardErrorContent]
    ) {
      _ = StaticContainer.values[BoundCycleKey.self]
    }
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(message.contains("BoundCycleKey -> BoundCycleKey."))
  }

  @Test func fireAndForgetTaskInABuilderIsNoCycle() async {
    await #expect(processExitsWith: .success) {
      let values = DependencyValues(context: .default)
      precondition(values[LauncherKey.self] == "launched")
      let echoed = await LauncherKey.task.withLock { $0 }?.value
      precondition(echoed == "echo(launched)")
    }
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

/// Two builders that meet, then each read the other's key: a cycle only visible across threads.
let crossing = Rendezvous()

enum NorthKey: DependencyKey {
  static var defaultValue: String {
    _ = crossing.meet("north", "south")
    return "north(\(DependencyValues.current[SouthKey.self]))"
  }
}

enum SouthKey: DependencyKey {
  static var defaultValue: String {
    _ = crossing.meet("south", "north")
    return "south(\(DependencyValues.current[NorthKey.self]))"
  }
}

/// Hands work to another thread and blocks on it; that work reads the key being built.
enum HandOffKey: DependencyKey {
  static var defaultValue: String {
    let done = DispatchSemaphore(value: 0)
    let result = ResultSlots<String>(1)
    withEscapedDependencies { continuation in
      DispatchQueue.global().async {
        result[0] = continuation.yield { DependencyValues.current[EchoKey.self] }
        done.signal()
      }
    }
    done.wait()
    return "hand-off(\(result[0] ?? ""))"
  }
}

enum EchoKey: DependencyKey {
  static var defaultValue: String { "echo(\(DependencyValues.current[HandOffKey.self]))" }
}

/// Starts a task that reads a key depending on this one, without waiting for it.
enum LauncherKey: DependencyKey {
  static let task = Mutex<Task<String, Never>?>(nil)

  static var defaultValue: String {
    let started = Task { DependencyValues.current[LaunchEchoKey.self] }
    task.withLock { $0 = started }
    usleep(100_000)  // let the task reach the read while this value is still being built
    return "launched"
  }
}

enum LaunchEchoKey: DependencyKey {
  static var defaultValue: String { "echo(\(DependencyValues.current[LauncherKey.self]))" }
}

/// Hands a wrapper made during its build to another thread and waits for what it reads.
enum WrapperHandOffKey: DependencyKey {
  struct Reader: Sendable {
    @Dependency(EchoBackKey.self) var echo
  }

  static var defaultValue: String {
    let reader = Reader()
    let done = DispatchSemaphore(value: 0)
    let result = ResultSlots<String>(1)
    DispatchQueue.global().async {
      result[0] = reader.echo
      done.signal()
    }
    done.wait()
    return "hand-off(\(result[0] ?? ""))"
  }
}

enum EchoBackKey: DependencyKey {
  static var defaultValue: String {
    "echo(\(DependencyValues.current[WrapperHandOffKey.self]))"
  }
}

/// A reads B, which reads C; C, built on another thread, reads A.
let crossingThree = Rendezvous()

enum CrossAKey: DependencyKey {
  static var defaultValue: String {
    _ = crossingThree.meet("a", "c")
    return "a(\(DependencyValues.current[CrossBKey.self]))"
  }
}

enum CrossBKey: DependencyKey {
  static var defaultValue: String { "b(\(DependencyValues.current[CrossCKey.self]))" }
}

enum CrossCKey: DependencyKey {
  static var defaultValue: String {
    _ = crossingThree.meet("c", "a")
    return "c(\(DependencyValues.current[CrossAKey.self]))"
  }
}

/// Runs `body` on another thread, then ends the process with exit code 3 after `seconds`: for
/// exit tests of waits that a report describes but that never end.
func exitAfter(seconds: UInt32, _ body: @escaping @Sendable () -> Void) -> Never {
  DispatchQueue.global().async { body() }
  sleep(seconds)
  exit(3)
}

/// Hands work to another thread and blocks on it; that work reads this key from the process
/// root, with no escaped scope: nothing links the two threads.
enum RootHandOffKey: DependencyKey {
  static var defaultValue: String {
    let done = DispatchSemaphore(value: 0)
    let result = ResultSlots<String>(1)
    DispatchQueue.global().async {
      result[0] = DependencyValues.current[RootHandOffKey.self]
      done.signal()
    }
    done.wait()
    return "hand-off(\(result[0] ?? ""))"
  }
}

/// Starts a task that reads this key, then works for longer than any report delay.
enum SlowLauncherKey: DependencyKey {
  static let task = Mutex<Task<String, Never>?>(nil)

  static var defaultValue: String {
    let started = Task { "echo(\(DependencyValues.current[SlowLauncherKey.self]))" }
    task.withLock { $0 = started }
    sleep(6)
    return "launched slowly"
  }
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

/// A build that takes longer than the wait warning's delay.
enum SixSecondKey: DependencyKey {
  static var defaultValue: String {
    sleep(6)
    return "slow"
  }
}
