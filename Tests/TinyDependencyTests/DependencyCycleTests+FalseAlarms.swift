import Dispatch
import Foundation
import TestSubprocess
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
    @Test(.oneExitTestAtATime)
    func slowBuildWithAFireAndForgetTaskReadingItsKeyIsNoCycle() async {
      await #expect(processExitsWith: .success) {
        let values = DependencyValues(context: .default)
        precondition(values[SlowLauncherKey.self] == "launched slowly")
        let echoed = await SlowLauncherKey.task.withLock { $0 }?.value
        precondition(echoed == "echo(launched slowly)")
      }
    }

    @Test(.oneExitTestAtATime)
    func slowBuildReadByManyThreadsIsWarnedOfOnceAndEveryReadGetsTheValue() async throws {
      let result = try await #require(
        processExitsWith: .success,
        observing: [\.standardErrorContent]
      ) {
        let values = DependencyValues(context: .default)
        let seen = await onThreads(4) { _ in values[SixSecondKey.self] }
        precondition(seen == Array(repeating: "slow", count: 4))
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      let warnings = message.split(
        separator: "TinyDependency: warning",
        omittingEmptySubsequences: false
      )
      #expect(warnings.count - 1 == 1)
      // The readers are in no build: the warning names no loop that would read like a cycle.
      #expect(!message.contains("SixSecondKey -> SixSecondKey"))
      #expect(message.contains("this read is outside any build"))
      #expect(message.contains("If the build is only slow, this read goes on waiting for it."))
    }

    @Test(.oneExitTestAtATime)
    func fireAndForgetTaskInABuilderIsNoCycle() async {
      await #expect(processExitsWith: .success) {
        let values = DependencyValues(context: .default)
        precondition(values[LauncherKey.self] == "launched")
        let echoed = await LauncherKey.task.withLock { $0 }?.value
        precondition(echoed == "echo(launched)")
      }
    }

    /// The thread reads the key in a scope that changed what the build read, so it builds its
    /// own; the build does not wait for the thread, so nothing is blocked.
    @Test(.oneExitTestAtATime)
    func aThreadStartedInABuildReadingItsKeyInANestedScopeIsNoCycle() async {
      await #expect(processExitsWith: .success) {
        let values = DependencyValues(context: .default)
        precondition(values[ThreadLauncherKey.self] == "launched with 0")
        precondition(ThreadLauncherKey.echo.wait(timeout: .now() + 10) == .success)
        precondition(ThreadLauncherKey.seen.withLock { $0 } == "launched with 1")
      }
    }

    @Test(.oneExitTestAtATime)
    func aTaskStartedInABuildReadingItsKeyInANestedScopeIsNoCycle() async {
      await #expect(processExitsWith: .success) {
        let values = DependencyValues(context: .default)
        precondition(values[TaskLauncherKey.self] == "launched with 0")
        let echoed = await TaskLauncherKey.task.withLock { $0 }?.value
        precondition(echoed == "launched with 1")
      }
    }

    @Test(.oneExitTestAtATime)
    func readingTheSameKeyForAnotherContextIsNoCycle() async {
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

enum LauncherInputKey: DependencyKey {
  static let defaultValue = 0
}

/// Starts a thread that reads this key in a scope setting its input, without waiting for it.
enum ThreadLauncherKey: DependencyKey {
  static let echo = DispatchSemaphore(value: 0)
  static let seen = Locked<String?>(nil)

  static var defaultValue: String {
    let input = DependencyValues.current[LauncherInputKey.self]
    if input == 0 {
      withEscapedDependencies { continuation in
        let thread = Thread {
          continuation.yield {
            let value = withDependencies {
              $0[LauncherInputKey.self] = 1
            } operation: {
              DependencyValues.current[ThreadLauncherKey.self]
            }
            seen.withLock { $0 = value }
            echo.signal()
          }
        }
        thread.start()
      }
      usleep(100_000)  // let the thread reach the read while this value is still being built
    }
    return "launched with \(input)"
  }
}

/// Starts a task that reads this key in a scope setting its input, without waiting for it.
enum TaskLauncherKey: DependencyKey {
  static let task = Locked<Task<String, Never>?>(nil)

  static var defaultValue: String {
    let input = DependencyValues.current[LauncherInputKey.self]
    if input == 0 {
      let started = Task {
        withDependencies {
          $0[LauncherInputKey.self] = 1
        } operation: {
          DependencyValues.current[TaskLauncherKey.self]
        }
      }
      task.withLock { $0 = started }
      usleep(100_000)  // let the task reach the read while this value is still being built
    }
    return "launched with \(input)"
  }
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
