import Foundation
import Observation
import Testing
import TinyDependency
import TinyDependencyBuiltins
import TinyDependencyTesting

// Written the way swift-dependencies 1.16's "Registering dependencies", "Live, preview and test
// dependencies" and "What are dependencies?" articles write their code, with only the imports
// and `liveValue` changed. AUDIT.md maps each of their code blocks to a test here.

// What are dependencies?, block 1: a model that sleeps on the real clock.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@Observable
final class GreeterModel {
  var message: String?

  func onAppear() async {
    do {
      try await Task.sleep(for: .seconds(10))
      message = "Hello!"
    } catch {}
  }
}

// Registering, block 4: a model reads a client by its type.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@Observable
final class ProfileModel {
  var users: [User] = []

  @ObservationIgnored
  @Dependency(APIClient.self) var apiClient

  func loadButtonTapped() async throws {
    users.append(try await apiClient.fetchUser(7))
  }
}

// Registering, block 6: a separate key type behind the `DependencyValues` property.
struct SessionClient: Sendable {
  var currentUser: User?
}

private enum SessionClientKey: DependencyKey {
  static let defaultValue = SessionClient(currentUser: nil)
}

extension DependencyValues {
  var sessionClient: SessionClient {
    get { self[SessionClientKey.self] }
    set { self[SessionClientKey.self] = newValue }
  }
}

// Registering, block 8: Foundation's own type as a key's value. `UserDefaults` is `Sendable` on
// Apple platforms only (not in swift-corelibs-foundation), as a key's value must be there too.
#if canImport(Darwin)
  enum AuditDefaultsKey: DependencyKey {
    static let defaultValue = UserDefaults.standard
  }
#endif

// Live, preview and test, block 3: an interface module's key with only a test value.
struct TrackerClient: Sendable {
  var track: @Sendable (String, [String: String]) async throws -> Void
}

extension TrackerClient: TestDependencyKey {
  static let testValue = Self(
    track: unimplemented("TrackerClient.track")
  )
}

// Live, preview and test, block 4: a preview value beside the test value.
struct DirectoryClient: Sendable {
  var fetchUsers: @Sendable () async throws -> [User]
  var fetchUser: @Sendable (_ id: Int) async throws -> User
}

extension DirectoryClient: TestDependencyKey {
  static let testValue = Self(
    fetchUsers: unimplemented("DirectoryClient.fetchUsers", placeholder: []),
    fetchUser: unimplemented("DirectoryClient.fetchUser")
  )
  static let previewValue = Self(
    fetchUsers: {
      [
        User(id: 1, name: "Ada"),
        User(id: 2, name: "Ada II"),
      ]
    },
    fetchUser: { id in
      User(id: id, name: "Ada, id: \(id)")
    }
  )
}

// Live, preview and test, block 1: a key with only a live value.
enum AuditLiveOnlyKey: DependencyKey {
  static let defaultValue = "live"
}

@Suite("swift-dependencies' Registering and Live, preview and test articles run here")
struct AuditRegisteringTests {
  // The real clock can't be controlled: the test can only cancel the sleep.
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func aModelOnTheRealClockWaits() async {
    let message = await Task {
      let model = GreeterModel()
      withUnsafeCurrentTask { $0?.cancel() }
      await model.onAppear()
      return model.message
    }.value
    #expect(message == nil)
  }

  // Registering, block 5: an endpoint overridden through the key's subscript. (The article's
  // test is `@MainActor` and its model is not: Swift 6 refuses that pair, so it is nonisolated.)
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test
  func fetchUser() async throws {
    let model = withDependencies {
      $0[APIClient.self].fetchUser = { id in User(id: id, name: "Get milk") }
    } operation: {
      ProfileModel()
    }

    try await model.loadButtonTapped()
    #expect(model.users == [User(id: 7, name: "Get milk")])
  }

  // Registering, block 7: a wrapper reads one member of a client.
  @Test func aWrapperReadsOneMember() {
    withDependencies {
      $0.sessionClient.currentUser = User(id: 3, name: "Grace")
    } operation: {
      @Dependency(\.sessionClient.currentUser) var currentUser
      #expect(currentUser == User(id: 3, name: "Grace"))
    }
  }

  #if canImport(Darwin)
    // Registering, block 9: a key's type in the wrapper and the subscript.
    @Test func userDefaultsByKey() {
      @Dependency(AuditDefaultsKey.self) var userDefaults

      let suite = "audit-defaults-\(UUID().uuidString)"
      let value = withDependencies {
        let defaults = UserDefaults(suiteName: suite)!
        defaults.removePersistentDomain(forName: suite)
        defaults.set("dark", forKey: "theme")
        $0[AuditDefaultsKey.self] = defaults
      } operation: {
        userDefaults.string(forKey: "theme")
      }
      #expect(value == "dark")
      UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite)
    }
  #endif

  // Live, preview and test, block 1: a key without a test value, read in a test.
  @Test(.strictDependencies) func feature() {
    withKnownIssue {
      @Dependency(AuditLiveOnlyKey.self) var value
      #expect(value == "live")
    } matching: {
      mentions($0, "AuditLiveOnlyKey")
    }
  }

  // Live, preview and test, blocks 2 and 9: a test asks for the live value by name.
  @Test func explicitlyLive() async throws {
    let model = withDependencies {
      // ⚠️ Say so when a test should use the live dependency.
      $0.apiClient = .defaultValue
    } operation: {
      EditTodoModel(todo: "Call home")
    }
    #expect(model.apiClient.baseURL == "https://api.example.com")
  }

  @Test func theInterfacesTestValueIsUnimplemented() async {
    @Dependency(TrackerClient.self) var tracker
    await withKnownIssue {
      await #expect(throws: (any Error).self) {
        try await tracker.track("opened", [:])
      }
    } matching: {
      mentions($0, "TrackerClient.track")
    }
  }

  @Test func thePreviewValueIsUsedInPreviews() async throws {
    let users = try await withDependencies {
      $0.context = .preview
    } operation: {
      @Dependency(DirectoryClient.self) var directory
      return try await directory.fetchUsers()
    }
    #expect(users.map(\.name) == ["Ada", "Ada II"])
  }
}
