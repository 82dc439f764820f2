// Clients declared the way swift-dependencies' documentation declares them, with `liveValue`
// renamed to `defaultValue`: the suites of this target read them as a migrated app would.

import Testing
import TinyDependency

struct User: Sendable, Equatable {
  var id: Int
  var name: String
}

struct APIClient: Sendable {
  var baseURL: String
  var fetchUser: @Sendable (_ id: Int) async throws -> User
}

extension APIClient: DependencyKey {
  static let defaultValue = APIClient(
    baseURL: "https://api.example.com",
    fetchUser: { id in User(id: id, name: "live \(id)") }
  )
  static let testValue = APIClient(
    baseURL: "https://test.invalid",
    fetchUser: unimplemented("APIClient.fetchUser")
  )
  static let mock = APIClient(
    baseURL: "https://mock.example.com",
    fetchUser: { id in User(id: id, name: "Blob") }
  )
}

extension DependencyValues {
  var apiClient: APIClient {
    get { self[APIClient.self] }
    set { self[APIClient.self] = newValue }
  }
}

/// Whether an issue's comments contain `text`.
func mentions(_ issue: Issue, _ text: String) -> Bool {
  issue.comments.contains { $0.rawValue.contains(text) }
}
