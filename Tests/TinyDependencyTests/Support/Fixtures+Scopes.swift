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

/// A transient view of the session's cart, built anew on every read.
enum CartViewKey: DependencyKey {
  static var defaultValue: ScopedThing {
    ScopedThing(user: DependencyValues.current[CartKey.self].user)
  }
  static var lifetime: DependencyLifetime { .transient }
}

/// A process-wide value that reads the session's cart through a transient key: captive too.
enum CaptiveThroughTransientKey: DependencyKey {
  static var defaultValue: ScopedThing { DependencyValues.current[CartViewKey.self] }
}

/// A process-wide value that only sets off a captive read through another key.
enum AppShellKey: DependencyKey {
  static var defaultValue: ScopedThing { DependencyValues.current[CaptiveAnalyticsKey.self] }
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
