import Dispatch
import TinyDependency

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// A signed-in user's session.
enum Session: DependencyScope {}
/// A checkout flow, begun only inside a session.
enum Checkout: DependencyScope { typealias Parent = Session }
/// A scope of its own, unrelated to the session.
enum Tenant: DependencyScope {}

/// An object whose identity tells builds apart.
final class ScopedThing: Sendable {
  let user: String
  init(user: String = "") { self.user = user }
}

/// Counts builds, for a key that only one test reads.
///
/// `@unchecked Sendable`: `count` is only touched on `queue`, a serial queue.
final class BuildCount: @unchecked Sendable {
  private let queue = DispatchQueue(label: "BuildCount")
  private var count = 0
  func add() { queue.sync { count += 1 } }
  var value: Int { queue.sync { count } }
}

enum SessionUserKey: DependencyKey {
  static var defaultValue: String { "nobody" }
}

enum CartKey: DependencyKey {
  static var defaultValue: ScopedThing {
    ScopedThing(user: DependencyValues.current[SessionUserKey.self])
  }
  static var lifetime: DependencyLifetime { .scoped(Session.self) }
}

/// A session-scoped key whose build is slow and counted, for concurrent first reads.
enum SlowCartKey: DependencyKey {
  static let builds = BuildCount()
  static var defaultValue: ScopedThing {
    builds.add()
    usleepBriefly()
    return ScopedThing()
  }
  static var lifetime: DependencyLifetime { .scoped(Session.self) }
}

enum BasketKey: DependencyKey {
  static var defaultValue: ScopedThing { ScopedThing() }
  static var lifetime: DependencyLifetime { .scoped(Checkout.self) }
}

/// A checkout value that reads the session's cart: a shorter scope reading a longer one is fine.
enum PaymentKey: DependencyKey {
  static var defaultValue: ScopedThing {
    ScopedThing(user: DependencyValues.current[CartKey.self].user)
  }
  static var lifetime: DependencyLifetime { .scoped(Checkout.self) }
}

/// A process-wide value that reads the session's cart: a captive dependency.
enum CaptiveAnalyticsKey: DependencyKey {
  static var defaultValue: ScopedThing {
    ScopedThing(user: DependencyValues.current[CartKey.self].user)
  }
}

/// A session value that reads a checkout's basket: also captive.
enum CaptiveSessionKey: DependencyKey {
  static var defaultValue: ScopedThing {
    _ = DependencyValues.current[BasketKey.self]
    return ScopedThing()
  }
  static var lifetime: DependencyLifetime { .scoped(Session.self) }
}

/// A process-wide value that only sets off a captive read through another key.
enum AppShellKey: DependencyKey {
  static var defaultValue: ScopedThing { DependencyValues.current[CaptiveAnalyticsKey.self] }
}

/// Ten session-scoped keys, for the memory loop.
enum ScopedKey0: DependencyKey, ScopedNumbered { static let number = 0 }
enum ScopedKey1: DependencyKey, ScopedNumbered { static let number = 1 }
enum ScopedKey2: DependencyKey, ScopedNumbered { static let number = 2 }
enum ScopedKey3: DependencyKey, ScopedNumbered { static let number = 3 }
enum ScopedKey4: DependencyKey, ScopedNumbered { static let number = 4 }
enum ScopedKey5: DependencyKey, ScopedNumbered { static let number = 5 }
enum ScopedKey6: DependencyKey, ScopedNumbered { static let number = 6 }
enum ScopedKey7: DependencyKey, ScopedNumbered { static let number = 7 }
enum ScopedKey8: DependencyKey, ScopedNumbered { static let number = 8 }
enum ScopedKey9: DependencyKey, ScopedNumbered { static let number = 9 }

protocol ScopedNumbered: DependencyKey where Value == [Int] { static var number: Int { get } }
extension ScopedNumbered {
  static var defaultValue: [Int] { Array(repeating: number, count: 16) }
  static var lifetime: DependencyLifetime { .scoped(Session.self) }
}

/// Sums one element of each of the ten scoped keys, read from `values`.
func readTenScopedKeys(_ values: DependencyValues) -> Int {
  values[ScopedKey0.self][0] + values[ScopedKey1.self][0] + values[ScopedKey2.self][0]
    + values[ScopedKey3.self][0] + values[ScopedKey4.self][0] + values[ScopedKey5.self][0]
    + values[ScopedKey6.self][0] + values[ScopedKey7.self][0] + values[ScopedKey8.self][0]
    + values[ScopedKey9.self][0]
}

/// Blocks the calling thread for a few milliseconds, so that concurrent first reads overlap.
func usleepBriefly() {
  usleep(20_000)
}

/// An object made in a session: its wrapper captures the session's scope.
///
/// `@unchecked Sendable`: a property wrapper's backing storage is a `var`, never written.
final class CartHolder: @unchecked Sendable {
  @Dependency(CartKey.self) var cart
}
