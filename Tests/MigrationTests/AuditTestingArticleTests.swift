import Foundation
import Testing
import TinyDependency
import TinyDependencyBuiltins
import TinyDependencyTesting

// Written the way swift-dependencies 1.16's "Testing" article writes its tests, with only the
// imports changed. AUDIT.md maps each of its code blocks to a test here.

final class TicketModel {
  @Dependency(\.uuid) var uuid
  @Dependency(\.date.now) var now
  var tickets: [UUID] = []

  func addButtonTapped() {
    tickets.append(uuid())
  }
}

struct LoginResponse: Sendable, Equatable {
  var user: User
}

struct LoginFailure: Error {}

struct AuthClient: Sendable {
  var login: @Sendable (_ email: String, _ password: String) async throws -> LoginResponse
}

extension AuthClient: TestDependencyKey {
  static let testValue = AuthClient(login: unimplemented("AuthClient.login"))
}

extension DependencyValues {
  var authClient: AuthClient {
    get { self[AuthClient.self] }
    set { self[AuthClient.self] = newValue }
  }
}

final class SignInModel {
  @Dependency(\.authClient) var authClient
  var errorMessage: String?

  func loginButtonTapped() async {
    do {
      _ = try await authClient.login("ada@example.com", "secret")
      errorMessage = nil
    } catch {
      errorMessage = "Signing in failed. Please try again"
    }
  }
}

// Testing, block 13: a static wrapper. Swift 6 takes a stored static `var` (a wrapper's storage)
// only in an isolated type or as `nonisolated(unsafe)`, for swift-dependencies as here.
@MainActor
final class ReceiptModel {
  @Dependency(\.date) static var date
}

// Testing, block 5: a base suite whose nested suites all run with the test context.
@Suite(.dependencies) struct AuditTestingArticleTests {}

// Testing, block 6: suites nested in the base suite by extension.
extension AuditTestingArticleTests {
  @Suite struct ScopedTests {
    // Testing, block 1: overrides in a scope inside the test.
    @Test func basics() {
      withDependencies {
        $0.uuid = .incrementing
      } operation: {
        let model = TicketModel()
        model.addButtonTapped()
        model.addButtonTapped()
        #expect(model.tickets == [UUID(0), UUID(1)])
      }
    }

    // Testing, block 2: the same override as a test's trait.
    @Test(.dependency(\.uuid, .incrementing))
    func basicsWithATrait() {
      let model = TicketModel()
      model.addButtonTapped()
      #expect(model.tickets == [UUID(0)])
    }

    // Testing, block 9: an endpoint overridden by key path in a trait, then in a scope.
    @Test(.dependency(\.authClient.login, { _, _ in throw LoginFailure() }))
    func retryFlow() async {
      let model = SignInModel()
      await model.loginButtonTapped()
      #expect(model.errorMessage == "Signing in failed. Please try again")

      await withDependencies {
        $0.authClient.login = { email, password in
          LoginResponse(user: User(id: 42, name: "Blob"))
        }
      } operation: {
        await model.loginButtonTapped()
        #expect(model.errorMessage == nil)
      }
    }

    // Testing, block 13: a static wrapper reads the test's dependencies.
    @MainActor
    @Test(.dependency(\.date.now, Date(timeIntervalSince1970: 86_400)))
    func staticWrapper() {
      #expect(ReceiptModel.date.now == Date(timeIntervalSince1970: 86_400))
    }

    // Testing, block 14: a parameterized test starts from a fresh container, which drops what
    // the suite or test set (here the mock client).
    @Test(.dependency(\.apiClient, .mock), arguments: [1, 2, 3])
    func feature(_ number: Int) {
      withDependencies {
        $0 = DependencyValues()
      } operation: {
        @Dependency(\.apiClient) var apiClient
        #expect(apiClient.baseURL == "https://test.invalid")
      }
    }
  }

  // Testing, block 3: a suite's trait applies to each of its tests.
  @Suite(.dependency(\.uuid, .incrementing))
  struct SuiteTraitTests {
    @Test func basics() {
      let model = TicketModel()
      model.addButtonTapped()
      #expect(model.tickets == [UUID(0)])
    }
  }

  // Testing, block 4: several overrides in a suite's trait.
  @Suite(
    .dependencies {
      $0.date.now = Date(timeIntervalSince1970: 12324567890)
      $0.uuid = .incrementing
    }
  )
  struct SuiteOverridesTests {
    @Test func basics() {
      let model = TicketModel()
      model.addButtonTapped()
      #expect(model.tickets == [UUID(0)])
      #expect(model.now == Date(timeIntervalSince1970: 12324567890))
    }
  }
}
