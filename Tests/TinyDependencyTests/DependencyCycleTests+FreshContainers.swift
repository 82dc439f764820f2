import TestSubprocess
import Testing

@testable import TinyDependency

/// Each level of these loops reads through a container made inside the build: a new storage
/// every time, so only the builds running on the thread can tell that the key came back.
@Suite("Cycles through containers made inside a build stop with their path")
struct DependencyCycleFreshContainerTests {
  #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test(.oneExitTestAtATime)
    func aBuildReadingItsKeyThroughAFreshContainerStops() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        _ = DependencyValues(context: .default)[FreshSelfKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("dependency cycle in the default context: FreshSelfKey -> FreshSelfKey.")
      )
    }

    @Test(.oneExitTestAtATime)
    func aBuildReadingItsKeyThroughAFreshBoundContainerStops() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        _ = DependencyValues(context: .default)[FreshBoundSelfKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("FreshBoundSelfKey -> FreshBoundSelfKey."))
    }

    @Test(.oneExitTestAtATime)
    func twoKeysReadingEachOtherThroughFreshContainersStop() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        _ = DependencyValues(context: .default)[FreshPingKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("FreshPingKey -> FreshPongKey -> FreshPingKey."))
    }

    /// Every level sets an input anew: the scope differs each time, the key comes back all
    /// the same, on the same thread, while its build runs. That is the cycle.
    @Test(.oneExitTestAtATime)
    func aFreshContainerWithItsOwnOverrideEachLevelStops() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        _ = DependencyValues(context: .default)[FreshOverridingKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("FreshOverridingKey -> FreshOverridingKey."))
    }

    /// A chain of distinct keys, each built inside the one before, never repeats: it stops
    /// before the thread's stack runs out, naming where the chain starts.
    @Test(.oneExitTestAtATime)
    func aChainOfBuildsTooDeepForTheStackStopsWithAMessage() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        _ = DependencyValues(context: .default)[DeepChainKey<DeepChainStart>.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("builds nested inside one another on this thread"))
      #expect(message.contains("DeepChainKey<DeepChainStart> -> DeepChainKey<Deeper<"))
    }
  #endif

  /// A test value that wraps the live one, read through a fresh container for the default
  /// context: the same key in another context is another value, not a cycle.
  @Test func readingTheSameKeyForAnotherContextThroughAFreshContainerIsNoCycle() {
    #expect(DependencyValues(context: .test)[FreshWrappingKey.self] == "wrapped(live)")
  }

  @Test func aFreshContainerReadingOtherKeysInsideABuildIsNoCycle() {
    #expect(DependencyValues(context: .default)[FreshReaderKey.self] == "reader(leaf)")
  }
}

// MARK: - Keys

enum FreshSelfKey: DependencyKey {
  static var defaultValue: Int { DependencyValues(context: .default)[FreshSelfKey.self] + 1 }
}

enum FreshBoundSelfKey: DependencyKey {
  static var defaultValue: Int {
    withDependencies(DependencyValues(context: .default)) {
      DependencyValues.current[FreshBoundSelfKey.self] + 1
    }
  }
}

enum FreshPingKey: DependencyKey {
  static var defaultValue: Int { DependencyValues(context: .default)[FreshPongKey.self] + 1 }
}

enum FreshPongKey: DependencyKey {
  static var defaultValue: Int { DependencyValues(context: .default)[FreshPingKey.self] + 1 }
}

enum FreshLevelKey: DependencyKey {
  static let defaultValue = 0
}

enum FreshOverridingKey: DependencyKey {
  static var defaultValue: Int {
    var values = DependencyValues(context: .default)
    values[FreshLevelKey.self] = 1
    return values[FreshOverridingKey.self] + 1
  }
}

enum FreshWrappingKey: DependencyKey {
  static let defaultValue = "live"
  static var testValue: String {
    "wrapped(\(DependencyValues(context: .default)[FreshWrappingKey.self]))"
  }
}

enum FreshLeafKey: DependencyKey {
  static let defaultValue = "leaf"
}

enum FreshReaderKey: DependencyKey {
  static var defaultValue: String {
    "reader(\(DependencyValues(context: .default)[FreshLeafKey.self]))"
  }
}

/// The first level of ``DeepChainKey``.
enum DeepChainStart {}
/// One level more than `Rest`.
enum Deeper<Rest> {}

/// A key of its own for every level: each reads the next one, a hundred thousand levels down,
/// far more than any thread's stack holds.
enum DeepChainKey<Level>: DependencyKey {
  static var defaultValue: Int {
    let level = deepChainLevels.withLock {
      $0 += 1
      return $0
    }
    guard level < 100_000 else { return 0 }
    return DependencyValues.current[DeepChainKey<Deeper<Level>>.self] + 1
  }
}

let deepChainLevels = Locked(0)
