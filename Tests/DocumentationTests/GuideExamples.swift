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
    let names = missing.map { "\($0)" }.joined(separator: ", ")
    print("missing settings: \(names)")  // "missing settings: DatabaseURLKey"
    return nil
  }
  return values
}

// MARK: - 11. A server that prepares at start-up and shuts down in order

/// Notes what started and stopped, in order.
final class StartupLog: @unchecked Sendable {
  // `@unchecked Sendable`: `lines` is only touched on `queue`, a serial queue.
  private let queue = DispatchQueue(label: "StartupLog")
  private var lines: [String] = []

  func note(_ line: String) { queue.sync { lines.append(line) } }
  var all: [String] { queue.sync { lines } }
}

enum StartupLogKey: DependencyKey {
  static var defaultValue: StartupLog { StartupLog() }
}

/// A connection pool that takes a while to connect; queries are instant.
final class SimulatedPool: DependencyShutdown {
  let log: StartupLog
  init(log: StartupLog) { self.log = log }

  func query(_ id: Int) async -> Int { id % 7 }
  func shutdown() async throws { log.note("stopped pool") }
}

enum SimulatedPoolKey: AsyncDependencyKey {
  static func makeDefault() async throws -> SimulatedPool {
    let log = DependencyValues.current[StartupLogKey.self]
    try await Task.sleep(nanoseconds: 5_000_000)  // connecting
    log.note("started pool")
    return SimulatedPool(log: log)
  }
}

final class InventoryService: DependencyShutdown {
  let pool: SimulatedPool
  init(pool: SimulatedPool) { self.pool = pool }

  func stock(of item: Int) async -> Int { await pool.query(item) }
  func shutdown() async throws { pool.log.note("stopped inventory") }
}

enum InventoryServiceKey: AsyncDependencyKey {
  static func makeDefault() async throws -> InventoryService {
    let pool = try await DependencyValues.current.prepared(SimulatedPoolKey.self)
    pool.log.note("started inventory")
    return InventoryService(pool: pool)
  }
}

final class PricingService: DependencyShutdown {
  let pool: SimulatedPool
  init(pool: SimulatedPool) { self.pool = pool }

  func price(of item: Int) async -> Int { await pool.query(item) * 100 + 99 }
  func shutdown() async throws { pool.log.note("stopped pricing") }
}

enum PricingServiceKey: AsyncDependencyKey {
  static func makeDefault() async throws -> PricingService {
    let pool = try await DependencyValues.current.prepared(SimulatedPoolKey.self)
    pool.log.note("started pricing")
    return PricingService(pool: pool)
  }
}

extension DependencyValues {
  var inventory: InventoryService {
    get { self[InventoryServiceKey.self] }
    set { self[InventoryServiceKey.self] = newValue }
  }
  var pricing: PricingService {
    get { self[PricingServiceKey.self] }
    set { self[PricingServiceKey.self] = newValue }
  }
}

/// Answers one request with the services prepared at start-up and the request's own ID.
struct QuoteHandler {
  @Dependency(\.requestID) var requestID
  @Dependency(\.inventory) var inventory
  @Dependency(\.pricing) var pricing

  func handle(item: Int) async -> String {
    let stock = await inventory.stock(of: item)
    let price = await pricing.price(of: item)
    return "\(requestID.rawValue): item \(item), \(stock) in stock at \(price) cents"
  }
}

struct ShopRun: Sendable {
  var events: [String]
  var wrongRequestIDs: Int
  var graph: DependencyGraph
  var shutdownOrder: [String]
}

func runShop(requests: Int) async throws -> ShopRun {
  var app = DependencyValues(context: .default)
  let log = StartupLog()
  app[StartupLogKey.self] = log
  // Start-up: the pool, then both services side by side.
  try await app.prepare([InventoryServiceKey.self, PricingServiceKey.self])

  // Each request in a scope of its own, with its own request ID.
  let wrong = await withDependencies(app) {
    await withTaskGroup(of: Int.self) { group in
      for number in 1...requests {
        group.addTask {
          await withDependencies {
            $0.requestID = RequestID(rawValue: "r-\(number)")
          } operation: {
            let response = await QuoteHandler().handle(item: number)
            return response.hasPrefix("r-\(number): ") ? 0 : 1
          }
        }
      }
      var total = 0
      for await mismatch in group { total += mismatch }
      return total
    }
  }

  let graph = app.graph
  let report = try await app.shutdown()  // both services, then the pool
  return ShopRun(
    events: log.all,
    wrongRequestIDs: wrong,
    graph: graph,
    shutdownOrder: report.order
  )
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
