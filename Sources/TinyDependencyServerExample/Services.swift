import Dispatch
import TinyDependency
import TinyDependencyLifecycle

// MARK: - Lifecycle events

/// What started and stopped, in order, so the example can print it.
///
/// `@unchecked Sendable`: `events` is only touched on `queue`, a serial queue.
final class LifecycleLog: @unchecked Sendable {
  private let queue = DispatchQueue(label: "LifecycleLog")
  private var events: [String] = []

  func note(_ event: String) { queue.sync { events.append(event) } }

  var all: [String] { queue.sync { events } }
}

enum LifecycleLogKey: DependencyKey {
  static var defaultValue: LifecycleLog { LifecycleLog() }
}

// MARK: - Settings

/// How many connections the pool opens: a plain synchronous key the pool's build reads.
enum PoolSizeKey: DependencyKey {
  static let defaultValue = 4
}

// MARK: - The connection pool

/// A simulated database connection pool: connecting and closing take time, queries don't.
final class ConnectionPool: DependencyShutdown {
  let size: Int
  let log: LifecycleLog

  private init(size: Int, log: LifecycleLog) {
    self.size = size
    self.log = log
  }

  /// Opens `size` connections, one after another.
  static func connect(size: Int, log: LifecycleLog) async throws -> ConnectionPool {
    for _ in 0..<size { try await Task.sleep(nanoseconds: 2_000_000) }
    log.note("started ConnectionPool (\(size) connections)")
    return ConnectionPool(size: size, log: log)
  }

  /// Runs a query on one of the connections.
  func query(_ sql: String, _ argument: Int) async -> Int {
    argument % 7
  }

  func shutdown() async throws {
    try await Task.sleep(nanoseconds: 5_000_000)
    log.note("stopped ConnectionPool")
  }
}

enum ConnectionPoolKey: AsyncDependencyKey {
  static func makeDefault() async throws -> ConnectionPool {
    let values = DependencyValues.current
    return try await ConnectionPool.connect(
      size: values[PoolSizeKey.self],
      log: values[LifecycleLogKey.self]
    )
  }
}

// MARK: - Services

/// Looks users up in the pool.
final class UserService: DependencyShutdown {
  let pool: ConnectionPool

  init(pool: ConnectionPool) { self.pool = pool }

  func name(of id: Int) async -> String {
    "user-\(await pool.query("SELECT name FROM users WHERE id = ?", id))"
  }

  func shutdown() async throws { pool.log.note("stopped UserService") }
}

enum UserServiceKey: AsyncDependencyKey {
  static func makeDefault() async throws -> UserService {
    let values = DependencyValues.current
    let service = UserService(pool: try await values.prepared(ConnectionPoolKey.self))
    values[LifecycleLogKey.self].note("started UserService")
    return service
  }
}

/// Counts orders in the pool.
final class OrderService: DependencyShutdown {
  let pool: ConnectionPool

  init(pool: ConnectionPool) { self.pool = pool }

  func orderCount(for id: Int) async -> Int {
    await pool.query("SELECT count(*) FROM orders WHERE user = ?", id)
  }

  func shutdown() async throws { pool.log.note("stopped OrderService") }
}

enum OrderServiceKey: AsyncDependencyKey {
  static func makeDefault() async throws -> OrderService {
    let values = DependencyValues.current
    let service = OrderService(pool: try await values.prepared(ConnectionPoolKey.self))
    values[LifecycleLogKey.self].note("started OrderService")
    return service
  }
}

// MARK: - Requests

/// Identifies one request; every scope serving a request sets its own.
struct RequestID: Sendable, Hashable, CustomStringConvertible {
  var rawValue: Int
  var description: String { "r-\(rawValue)" }
}

enum RequestIDKey: DependencyKey {
  static let defaultValue = RequestID(rawValue: 0)
}

extension DependencyValues {
  var requestID: RequestID {
    get { self[RequestIDKey.self] }
    set { self[RequestIDKey.self] = newValue }
  }
  var users: UserService {
    get { self[UserServiceKey.self] }
    set { self[UserServiceKey.self] = newValue }
  }
  var orders: OrderService {
    get { self[OrderServiceKey.self] }
    set { self[OrderServiceKey.self] = newValue }
  }
}

/// Handles one request with the values of the scope it runs in.
struct RequestHandler {
  @Dependency(\.requestID) var requestID
  @Dependency(\.users) var users
  @Dependency(\.orders) var orders

  func handle(userID: Int) async -> String {
    let name = await users.name(of: userID)
    let count = await orders.orderCount(for: userID)
    return "\(requestID): \(name) has \(count) orders"
  }
}
