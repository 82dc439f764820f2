import Testing

@testable import TinyDependency

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

@Suite("Reads that only look like cycles go on to the value")
struct DependencyCycleFalseAlarmTests {
  #if compiler(>=6.2) && (os(macOS) || os(Linux))
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
  #endif

  @Test func readingTheSameKeyTwiceInOneBuildIsNoCycle() {
    let values = DependencyValues(context: .default)
    #expect(values[TwiceReaderKey.self] == "leaf+leaf")
  }
}

// MARK: - Keys

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

/// Starts a task that reads a key depending on this one, without waiting for it.
enum LauncherKey: DependencyKey {
  static let task = Locked<Task<String, Never>?>(nil)

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

/// Starts a task that reads this key, then works for longer than any report delay.
enum SlowLauncherKey: DependencyKey {
  static let task = Locked<Task<String, Never>?>(nil)

  static var defaultValue: String {
    let started = Task { "echo(\(DependencyValues.current[SlowLauncherKey.self]))" }
    task.withLock { $0 = started }
    sleep(6)
    return "launched slowly"
  }
}

/// A build that takes longer than the wait warning's delay.
enum SixSecondKey: DependencyKey {
  static var defaultValue: String {
    sleep(6)
    return "slow"
  }
}
