import Dispatch
import TestSubprocess
import Testing
import TinyDependency

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

@Suite("Cycles across threads stop, and blocking hand-offs are reported after a timeout")
struct DependencyCycleAcrossThreadsTests {
  #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test(.oneExitTestAtATime)
    func cycleAcrossTwoThreadsStopsInsteadOfHanging() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let values = DependencyValues(context: .default)
        _ = await onThreads(2) { index in
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

    @Test(.oneExitTestAtATime)
    func cycleAcrossThreadsThroughNestedBuildsNamesEveryKey() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let values = DependencyValues(context: .default)
        _ = await onThreads(2) { index in
          index == 0 ? values[CrossAKey.self] : values[CrossCKey.self]
        }
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("CrossAKey -> CrossBKey -> CrossCKey -> CrossAKey")
          || message.contains("CrossCKey -> CrossAKey -> CrossBKey -> CrossCKey")
      )
    }

    @Test(.oneExitTestAtATime)
    func blockingHandOffToAnotherThreadIsReportedAfterATimeout() async throws {
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

    @Test(.oneExitTestAtATime)
    func handOffThroughAPropertyWrapperIsReportedAfterATimeout() async throws {
      let result = try await #require(
        processExitsWith: .exitCode(3),
        observing: [\.standardErrorContent]
      ) {
        exitAfter(seconds: 8) { _ = DependencyValues(context: .default)[WrapperHandOffKey.self] }
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("WrapperHandOffKey -> EchoBackKey -> WrapperHandOffKey"))
    }

    @Test(.oneExitTestAtATime)
    func blockingHandOffThroughTheProcessRootIsReportedAfterATimeout() async throws {
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
  #endif
}

// MARK: - Keys

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
      onNewThread {
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

/// Hands a wrapper made during its build to another thread and waits for what it reads.
enum WrapperHandOffKey: DependencyKey {
  struct Reader: Sendable {
    @Dependency(EchoBackKey.self) var echo
  }

  static var defaultValue: String {
    let reader = Reader()
    let done = DispatchSemaphore(value: 0)
    let result = ResultSlots<String>(1)
    onNewThread {
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
  onNewThread { body() }
  sleep(seconds)
  exit(3)
}

/// Hands work to another thread and blocks on it; that work reads this key from the process
/// root, with no escaped scope: nothing links the two threads.
enum RootHandOffKey: DependencyKey {
  static var defaultValue: String {
    let done = DispatchSemaphore(value: 0)
    let result = ResultSlots<String>(1)
    onNewThread {
      result[0] = DependencyValues.current[RootHandOffKey.self]
      done.signal()
    }
    done.wait()
    return "hand-off(\(result[0] ?? ""))"
  }
}
