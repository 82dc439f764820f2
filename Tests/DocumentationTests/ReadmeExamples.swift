// Compiled copies of the code blocks in README.md. DocumentationTests checks that every
// ```swift block there appears here line for line; edit both together.

import Dispatch
import Foundation
import Testing
import TinyDependency
import TinyDependencyBuiltins
import TinyDependencyFactories
import TinyDependencyGraph
import TinyDependencyLifecycle
import TinyDependencyTesting

// MARK: - Quick start

protocol Logger: Sendable {
  func log(_ message: String)
}

struct PrintLogger: Logger {
  var prefix = ""
  func log(_ message: String) { print(prefix + message) }
}

private enum LoggerKey: DependencyKey {
  static let defaultValue: any Logger = PrintLogger()
  static let testValue: any Logger = PrintLogger(prefix: "[test] ")
}

extension DependencyValues {
  var logger: any Logger {
    get { self[LoggerKey.self] }
    set { self[LoggerKey.self] = newValue }
  }
}

final class Checkout {
  @Dependency(\.logger) var logger

  func pay(cents: Int) {
    logger.log("charged \(cents) cents")
  }
}

func quickStart() {
  Checkout().pay(cents: 499)  // live: "charged 499 cents"; in tests: "[test] charged 499 cents"

  withDependencies {
    $0.logger = PrintLogger(prefix: "[scoped] ")
  } operation: {
    Checkout().pay(cents: 100)  // "[scoped] charged 100 cents"
  }
}

// MARK: - Overriding in a test

final class MemoryLogger: Logger, @unchecked Sendable {
  // `@unchecked Sendable`: `lines` is only touched with `lock` held.
  private let lock = NSLock()
  private var lines: [String] = []

  func log(_ message: String) {
    lock.lock()
    defer { lock.unlock() }
    lines.append(message)
  }

  var messages: [String] {
    lock.lock()
    defer { lock.unlock() }
    return lines
  }
}

@Test(.dependency(\.logger, MemoryLogger()))
func checkoutLogsTheCharge() {
  Checkout().pay(cents: 499)
  let logger = DependencyValues.current.logger as? MemoryLogger
  #expect(logger?.messages == ["charged 499 cents"])
}

@Test func aScopeOverridesOneOperation() {
  let logger = MemoryLogger()
  withDependencies {
    $0.logger = logger
  } operation: {
    Checkout().pay(cents: 100)
  }
  #expect(logger.messages == ["charged 100 cents"])
}

// MARK: - Named scopes and factories

enum UserSession: DependencyScope {}

private enum OwnerKey: DependencyKey { static let defaultValue = "guest" }

private enum BasketKey: DependencyKey {
  static var defaultValue: String { "basket of " + DependencyValues.current[OwnerKey.self] }
  static var lifetime: DependencyLifetime { .scoped(UserSession.self) }  // one per session
}

private enum OrderLabelKey: DependencyKey {
  static var defaultValue: DependencyFactory<Int, String> { .cached { "order \($0)" } }
}

func signIn() async throws -> (basket: String, label: String) {
  let session = DependencyValues.current.beginScope(UserSession.self) { $0[OwnerKey.self] = "ada" }
  let basket = session.run { DependencyValues.current[BasketKey.self] }
  let label = session.values[OrderLabelKey.self](7)  // made once per argument per container
  try await session.end()  // TinyDependencyLifecycle: shuts the session's values down
  return (basket, label)
}

@Test func aSessionHasItsOwnBasketAndTheFactoryItsLabel() async throws {
  // The live values, with no test value to report missing: the README's keys have none.
  let (basket, label) = try await withDependencies(DependencyValues(context: .default)) {
    try await signIn()
  }
  #expect(basket == "basket of ada")
  #expect(label == "order 7")
}

// MARK: - Capture

func captureRules() {
  let checkout = withDependencies {
    $0.logger = PrintLogger(prefix: "[made in scope] ")
  } operation: {
    Checkout()
  }
  checkout.pay(cents: 1)  // "[made in scope] charged 1 cents": it kept its scope

  withDependencies {
    $0.logger = PrintLogger(prefix: "[later] ")
  } operation: {
    checkout.pay(cents: 2)  // "[later] charged 2 cents": a newer override wins
  }
}

// MARK: - Explicit containers

func explicitContainer() {
  var values = DependencyValues(context: .test)
  values.logger = PrintLogger(prefix: "[request 42] ")
  values.logger.log("resolved straight from the container")

  withDependencies(values) {
    Checkout().pay(cents: 250)  // "[request 42] charged 250 cents"
  }
}

// MARK: - Escaping

func escaping() {
  withDependencies {
    $0.logger = PrintLogger(prefix: "[escaped] ")
  } operation: {
    withEscapedDependencies { continuation in
      DispatchQueue.global().async {
        continuation.yield {
          Checkout().pay(cents: 5)  // "[escaped] charged 5 cents"
        }
      }
    }
  }
}

// MARK: - Graph and inputs

enum BaseURLKey: DependencyInputKey {
  typealias Value = String
}

struct PaymentsClient: Sendable {
  var baseURL: String
  var logger: any Logger
}

enum PaymentsClientKey: DependencyKey {
  static var defaultValue: PaymentsClient {
    let values = DependencyValues.current
    return PaymentsClient(baseURL: values[BaseURLKey.self], logger: values.logger)
  }
}

func graphAndInputs() -> DependencyGraph {
  var values = DependencyValues(context: .test)
  let unset = values.unsetInputs(among: [BaseURLKey.self, PaymentsClientKey.self])
  precondition(unset.count == 1)  // BaseURLKey: nothing built or read to find out
  values[BaseURLKey.self] = "https://payments.example.com"
  _ = values[PaymentsClientKey.self]
  return values.graph  // or DependencyGraph.trace([PaymentsClientKey.self]) { … }
}

// MARK: - Servers

final class DatabasePool: DependencyShutdown {
  static func connect(size: Int) async throws -> DatabasePool {
    try await Task.sleep(nanoseconds: 1_000_000)  // stands for opening `size` connections
    return DatabasePool()
  }

  func shutdown() async throws {}  // closes the connections
}

final class AccountService: DependencyShutdown {
  let pool: DatabasePool
  init(pool: DatabasePool) { self.pool = pool }

  func shutdown() async throws {}  // finishes its work, while the pool is still open
}

enum DatabasePoolKey: AsyncDependencyKey {
  static func makeDefault() async throws -> DatabasePool {
    try await DatabasePool.connect(size: 4)
  }
}

enum AccountServiceKey: AsyncDependencyKey {
  static func makeDefault() async throws -> AccountService {
    // Awaits the pool's build, shared with everything else that needs it.
    AccountService(pool: try await DependencyValues.current.prepared(DatabasePoolKey.self))
  }
}

enum RequestNumberKey: DependencyKey {
  static let defaultValue = 0
}

extension DependencyValues {
  var accounts: AccountService {
    get { self[AccountServiceKey.self] }
    set { self[AccountServiceKey.self] = newValue }
  }
  var requestNumber: Int {
    get { self[RequestNumberKey.self] }
    set { self[RequestNumberKey.self] = newValue }
  }
}

func runServer() async throws -> [String] {
  let app = DependencyValues(context: .default)
  try await app.prepare([AccountServiceKey.self])  // the pool, then the service
  await withDependencies(app) {
    await withTaskGroup(of: Void.self) { requests in
      for number in 1...100 {
        requests.addTask {
          withDependencies {
            $0.requestNumber = number
          } operation: {
            _ = DependencyValues.current.accounts  // prepared: a synchronous read
          }
        }
      }
    }
  }
  let report = try await app.shutdown()  // the service, then the pool
  return report.order  // ["AccountServiceKey", "DatabasePoolKey"]
}

// MARK: - Built-in dependencies

struct Reminder: Equatable {
  let id: UUID
  let title: String
  let createdAt: Date
}

struct ReminderMaker {
  @Dependency(\.uuid) var uuid
  @Dependency(\.date.now) var now

  func make(_ title: String) -> Reminder {
    Reminder(id: uuid(), title: title, createdAt: now)
  }
}

@Test(
  .dependencies {
    $0.uuid = .incrementing
    $0.date = .constant(Date(timeIntervalSince1970: 0))
  }
)
func remindersAreDeterministic() {
  let maker = ReminderMaker()
  #expect(maker.make("Call Ada").id == UUID(0))
  #expect(maker.make("Write").id == UUID(1))
  #expect(maker.make("Write").createdAt == Date(timeIntervalSince1970: 0))
}

actor Beats {
  var count = 0
  func beat() { count += 1 }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct Heartbeat {
  @Dependency(\.continuousClock) var clock

  func run(_ beats: Beats) async {
    for await _ in clock.timer(interval: .seconds(1)) {
      await beats.beat()
    }
  }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
@Test func heartbeatBeatsOncePerSecond() async {
  let clock = TestClock()
  let beats = Beats()
  let task = Task {
    await withDependencies {
      $0.continuousClock = clock
    } operation: {
      await Heartbeat().run(beats)
    }
  }
  await clock.waitForSleepers(1)
  await clock.advance(by: .seconds(3))
  #expect(await beats.count == 3)
  task.cancel()
}
