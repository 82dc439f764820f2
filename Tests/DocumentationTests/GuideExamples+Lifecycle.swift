// Compiled copies of the code blocks in section 11 of Examples.md. DocumentationTests checks that
// every ```swift block there appears in a GuideExamples+ file line for line; edit both together.

import Dispatch
import TinyDependency
import TinyDependencyGraph
import TinyDependencyLifecycle

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
