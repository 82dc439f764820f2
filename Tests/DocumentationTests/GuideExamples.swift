// Compiled copies of the code blocks in Examples.md. DocumentationTests checks that every
// ```swift block there appears here line for line; edit both together.

import Dispatch
import Foundation
import Testing
import TinyDependency
import TinyDependencyBuiltins
import TinyDependencyTesting

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

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

// MARK: - 5. An explicit container per server request

struct RequestID: Sendable, Hashable {
  var rawValue: String
}

enum RequestIDKey: DependencyKey {
  static let defaultValue = RequestID(rawValue: "no-request")
}

extension DependencyValues {
  var requestID: RequestID {
    get { self[RequestIDKey.self] }
    set { self[RequestIDKey.self] = newValue }
  }
}

struct GreetingHandler {
  @Dependency(\.requestID) var requestID
  @Dependency(\.auditLog) var log

  func handle(name: String) -> String {
    log.log("\(requestID.rawValue): greeting \(name)")
    return "Hello, \(name)!"
  }
}

/// One container per request: its overrides and everything built from them stay with it.
func serve(requestID: String, name: String) async -> String {
  var request = DependencyValues(context: .default)
  request.requestID = RequestID(rawValue: requestID)
  request.auditLog = RecordingLogger()
  return withDependencies(request) {
    GreetingHandler().handle(name: name)
  }
}

// MARK: - 6. A conditional default

enum StorageDirectoryKey: DependencyKey {
  /// `$APP_DATA_DIR` when it is set, otherwise a directory under the working directory.
  static var defaultValue: String {
    if let configured = getenv("APP_DATA_DIR") {
      return String(cString: configured)
    }
    return "./data"
  }
  static let testValue = "/tmp/app-tests"
}

extension DependencyValues {
  var storageDirectory: String {
    get { self[StorageDirectoryKey.self] }
    set { self[StorageDirectoryKey.self] = newValue }
  }
}

// MARK: - 7. Escaping to Dispatch and detached tasks

func reportInBackground(_ message: String, done: @escaping @Sendable () -> Void) {
  withEscapedDependencies { continuation in
    DispatchQueue.global().async {
      continuation.yield {
        DependencyValues.current.auditLog.log(message)  // the caller's scope, not the root
        done()
      }
    }
  }
}

func reportDetached(_ message: String) async {
  await withEscapedDependencies { continuation in
    await Task.detached {
      continuation.yield {
        DependencyValues.current.auditLog.log(message)
      }
    }.value
  }
}

// MARK: - 9. An input for a server's settings

enum ListenPortKey: DependencyInputKey {
  typealias Value = Int
  static let testValue = 0  // tests ask the system for a free port
}

enum DatabaseURLKey: DependencyInputKey {
  typealias Value = String
}

func makeServerContainer(port: Int, databaseURL: String?) -> DependencyValues? {
  var values = DependencyValues(context: .default)
  values[ListenPortKey.self] = port
  if let databaseURL { values[DatabaseURLKey.self] = databaseURL }
  let missing = values.unsetInputs(among: [ListenPortKey.self, DatabaseURLKey.self])
  guard missing.isEmpty else {
    print("missing settings: \(missing)")  // "missing settings: [DatabaseURLKey]"
    return nil
  }
  return values
}

// MARK: - Stand-ins the examples call

enum PostgresDatabase {
  static func connect() -> any Database { InMemoryDatabase() }
}

enum HTTP {
  struct Offline: Error {}
  static func getJSON<T>(_ type: T.Type, from url: String) async throws -> T { throw Offline() }
}

// MARK: - 11. Built-in dependencies

/// Saves a draft one second after the last edit.
actor DraftSaver {
  @Dependency(\.continuousClock) var clock
  private var pending: Task<Void, Never>?
  private(set) var saved: [String] = []

  func edit(_ text: String) {
    pending?.cancel()
    pending = Task {
      do {
        try await clock.sleep(for: .seconds(1))
      } catch {
        return  // a later edit cancelled this one
      }
      saved.append(text)
    }
  }
}

@Test func draftIsSavedOneSecondAfterTheLastEdit() async {
  let clock = TestClock()
  let saver = withDependencies {
    $0.continuousClock = clock
  } operation: {
    DraftSaver()
  }
  await saver.edit("H")
  await saver.edit("Hi")
  await clock.waitForSleepers(1)
  await clock.advance(by: .milliseconds(999))
  #expect(await saver.saved.isEmpty)
  await clock.advance(by: .milliseconds(1))
  #expect(await saver.saved == ["Hi"])
}

struct Shuffler {
  @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator

  func shuffled(_ cards: [String]) -> [String] {
    withRandomNumberGenerator { generator in cards.shuffled(using: &generator) }
  }
}

@Test(.dependency(\.withRandomNumberGenerator, .seeded(7)))
func shufflingIsReproducible() {
  var expected = SeededRandomNumberGenerator(seed: 7)
  let cards = ["A", "B", "C", "D"]
  #expect(Shuffler().shuffled(cards) == cards.shuffled(using: &expected))
}
