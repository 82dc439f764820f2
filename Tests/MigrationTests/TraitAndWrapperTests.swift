import Foundation
import TestSubprocess
import Testing
import TinyDependency
import TinyDependencyBuiltins
import TinyDependencyTesting

/// A key for the entry-point test: set once, in a process of its own.
enum LaunchGreetingKey: DependencyKey {
  static let defaultValue = "hello"
}

@Suite("Traits and wrappers keep swift-dependencies' spelling")
struct TraitAndWrapperTests {
  @Test(.dependency(APIClient.mock))
  func aTypeThatIsItsOwnKeyIsSetByValue() async throws {
    @Dependency(APIClient.self) var apiClient
    #expect(apiClient.baseURL == "https://mock.example.com")
    #expect(try await apiClient.fetchUser(1).name == "Blob")
  }

  // The clock is set in the body, not in a trait: a trait's expression is not covered by the
  // test's `@available`, and the package's minimum systems predate `Clock`.
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func aDependencyIsReadAsTheTypeTheTestSet() async {
    await withDependencies {
      $0.continuousClock = TestClock()
    } operation: {
      @Dependency(\.continuousClock, as: TestClock<Duration>.self) var clock
      @Dependency(\.continuousClock) var continuousClock
      await clock.advance(by: .seconds(3))
      #expect(clock.now.offset == .seconds(3))
      #expect((continuousClock.now as? ClockInstant<Duration>)?.offset == .seconds(3))
    }
  }

  @Test(.dependency(APIClient.mock))
  func aKeyIsReadAsTheTypeTheTestSet() {
    @Dependency(APIClient.self, as: APIClient.self) var apiClient
    #expect(apiClient.baseURL == "https://mock.example.com")
  }

  #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(.oneExitTestAtATime) func readingAsAnotherTypeStopsWithTheFix() async {
      let result = await #expect(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        withDependencies {
          $0.continuousClock = ImmediateClock()
        } operation: {
          @Dependency(\.continuousClock, as: TestClock<Duration>.self) var clock
          _ = clock.now
        }
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(message.contains("which is not a TestClock<Duration>. Override it for the test"))
    }

    @Test(.oneExitTestAtATime) func prepareDependenciesReturnsWhatItsClosureReturns() async throws {
      let result = try await #require(
        processExitsWith: .success,
        observing: [\.standardOutputContent]
      ) {
        let formatter = prepareDependencies {
          $0[LaunchGreetingKey.self] = "prepared"
          return ">> "
        }
        print(formatter + DependencyValues.current[LaunchGreetingKey.self])
      }
      let output = String(decoding: result.standardOutputContent, as: UTF8.self)
      #expect(output.contains(">> prepared"))
    }
  #endif
}
