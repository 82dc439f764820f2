// Compiled copies of the code blocks in sections 1 to 4 of Examples.md, and the stand-ins they
// call. DocumentationTests checks that every ```swift block there appears in a GuideExamples+
// file line for line; edit both together.

import Dispatch
import TinyDependency

// MARK: - 1. A logger

/// Keeps every message, so a test can assert on what was logged.
final class RecordingLogger: Logger, @unchecked Sendable {
  // `@unchecked Sendable`: `lines` is only touched on `queue`, a serial queue.
  private let queue = DispatchQueue(label: "RecordingLogger")
  private var lines: [String] = []

  func log(_ message: String) { queue.sync { lines.append(message) } }
  var messages: [String] { queue.sync { lines } }
}

enum AuditLogKey: DependencyKey {
  static var defaultValue: any Logger { PrintLogger(prefix: "[audit] ") }
  static var testValue: any Logger { RecordingLogger() }  // a fresh one per container
}

extension DependencyValues {
  var auditLog: any Logger {
    get { self[AuditLogKey.self] }
    set { self[AuditLogKey.self] = newValue }
  }
}

// MARK: - 2. A database

struct User: Sendable, Hashable {
  var id: Int
  var name: String
}

protocol Database: Sendable {
  func user(id: Int) async throws -> User?
  func save(_ user: User) async throws
}

actor InMemoryDatabase: Database {
  private var users: [Int: User] = [:]

  init(_ users: [User] = []) {
    for user in users { self.users[user.id] = user }
  }

  func user(id: Int) -> User? { users[id] }
  func save(_ user: User) { users[user.id] = user }
}

enum DatabaseKey: DependencyKey {
  static var defaultValue: any Database { PostgresDatabase.connect() }
  static var testValue: any Database { InMemoryDatabase() }
  static var previewValue: any Database {
    InMemoryDatabase([User(id: 1, name: "Preview Person")])
  }
}

extension DependencyValues {
  var database: any Database {
    get { self[DatabaseKey.self] }
    set { self[DatabaseKey.self] = newValue }
  }
}

// MARK: - 3. An API client

struct APIClient: Sendable {
  var fetchUser: @Sendable (_ id: Int) async throws -> User
}

extension APIClient: DependencyKey {
  static let defaultValue = APIClient { id in
    try await HTTP.getJSON(User.self, from: "https://api.example.com/users/\(id)")
  }
  static let testValue = APIClient { id in
    User(id: id, name: "User \(id)")
  }
}

extension DependencyValues {
  var apiClient: APIClient {
    get { self[APIClient.self] }
    set { self[APIClient.self] = newValue }
  }
}

// MARK: - 4. Several dependencies in one service

struct ProfileService {
  @Dependency(\.apiClient) var api
  @Dependency(\.database) var database
  @Dependency(\.auditLog) var log

  /// Returns the user from the database, fetching and saving it on a miss.
  func profile(id: Int) async throws -> User {
    if let cached = try await database.user(id: id) {
      return cached
    }
    let user = try await api.fetchUser(id)
    try await database.save(user)
    log.log("fetched user \(id)")
    return user
  }
}

func profileOverrides() async throws -> User {
  try await withDependencies {
    $0.apiClient = APIClient { id in User(id: id, name: "Ada") }
    $0.database = InMemoryDatabase()
  } operation: {
    try await ProfileService().profile(id: 7)  // User(id: 7, name: "Ada"), now saved
  }
}

// MARK: - Stand-ins the examples call

enum PostgresDatabase {
  static func connect() -> any Database { InMemoryDatabase() }
}

enum HTTP {
  struct Offline: Error {}
  static func getJSON<T>(_ type: T.Type, from url: String) async throws -> T { throw Offline() }
}
