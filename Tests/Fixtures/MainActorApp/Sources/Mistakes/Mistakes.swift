// Each mistake the README's "Default main-actor isolation" section lists, spelled as a user
// would. This target does not compile; the test checks each error the documentation quotes.
import TinyDependency
import TinyDependencyFactories

protocol Logger: Sendable {
  func log(_ message: String)
}

struct PrintLogger: Logger {
  func log(_ message: String) { print(message) }
}

enum LoggerKey: DependencyKey {
  static let defaultValue: any Logger = PrintLogger()
}

extension DependencyValues {
  var logger: any Logger {
    get { self[LoggerKey.self] }
    set { self[LoggerKey.self] = newValue }
  }
}

nonisolated func wrapperInNonisolatedFunction() {
  @Dependency(\.logger) var logger
  _ = logger
}

nonisolated func propertyInNonisolatedFunction() {
  _ = DependencyValues.current.logger
}

nonisolated func overrideInNonisolatedFunction() {
  withDependencies {
    $0.logger = PrintLogger()
  } operation: {
  }
}

actor Worker {
  @Dependency(\.logger) var logger
}

actor Reporter {
  @Dependency(LoggerKey.self) var logger
  func report() { logger.log("report") }
}

final class Haptics {}

enum HapticsKey: MainActorDependencyKey {
  static var defaultValue: Haptics { Haptics() }
}

extension DependencyValues {
  var haptics: Haptics {
    get { self[HapticsKey.self] }
    set { self[HapticsKey.self] = newValue }
  }
}

final class CheckoutModel {
  @Dependency(\.haptics) var haptics
}

nonisolated func hapticsInNonisolatedFunction() {
  _ = DependencyValues.current[HapticsKey.self]
}

// A key's value, or a factory's product, made from a class the app declares: the class is
// main-actor isolated, the key's requirements are not.
final class SessionCart: Sendable {
  init() {}
}

enum SessionCartKey: DependencyKey {
  static var defaultValue: SessionCart { SessionCart() }
}

final class TenantClient: Sendable {
  init(tenant: String) {}
}

enum TenantClientKey: DependencyKey {
  static var defaultValue: DependencyFactory<String, TenantClient> {
    .cached { tenant in TenantClient(tenant: tenant) }
  }
}
