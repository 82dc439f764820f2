import TinyDependency
import TinyDependencyLifecycle

/// A signed-in user's session, for the ending tests.
enum UserSession: DependencyScope {}
/// A flow begun inside a session.
enum Flow: DependencyScope { typealias Parent = UserSession }

/// The session's client: shut down after the cart that read it.
enum SessionClientKey: DependencyKey {
  static var defaultValue: Resource {
    Resource("Client", settings: DependencyValues.current.asyncSettings)
  }
  static var lifetime: DependencyLifetime { .scoped(UserSession.self) }
}

enum SessionCartKey: DependencyKey {
  static var defaultValue: Resource {
    let client = DependencyValues.current[SessionClientKey.self]
    return Resource("Cart", settings: DependencyValues.current.asyncSettings, uses: [client])
  }
  static var lifetime: DependencyLifetime { .scoped(UserSession.self) }
}

/// A process-wide resource a session reads: the session never shuts it down.
enum ProcessWideKey: DependencyKey {
  static var defaultValue: Resource {
    Resource("ProcessWide", settings: DependencyValues.current.asyncSettings)
  }
}

/// A flow's own resource, named by the flow's label.
enum FlowStepKey: DependencyKey {
  static var defaultValue: Resource {
    Resource(
      "Step " + DependencyValues.current[FlowLabelKey.self],
      settings: DependencyValues.current.asyncSettings
    )
  }
  static var lifetime: DependencyLifetime { .scoped(Flow.self) }
}

enum FlowLabelKey: DependencyKey {
  static var defaultValue: String { "" }
}

/// An object made in a session; its wrapper captures the session.
///
/// `@unchecked Sendable`: a property wrapper's backing storage is a `var`, never written.
final class SessionCartHolder: @unchecked Sendable {
  @Dependency(SessionCartKey.self) var cart
}

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

func usleepShort() { usleep(1_000) }

/// Ten session-scoped keys, for the memory rounds.
protocol RoundScoped: DependencyKey where Value == [Int] { static var number: Int { get } }
extension RoundScoped {
  static var defaultValue: [Int] { Array(repeating: number, count: 16) }
  static var lifetime: DependencyLifetime { .scoped(UserSession.self) }
}
enum Round0: RoundScoped { static let number = 0 }
enum Round1: RoundScoped { static let number = 1 }
enum Round2: RoundScoped { static let number = 2 }
enum Round3: RoundScoped { static let number = 3 }
enum Round4: RoundScoped { static let number = 4 }
enum Round5: RoundScoped { static let number = 5 }
enum Round6: RoundScoped { static let number = 6 }
enum Round7: RoundScoped { static let number = 7 }
enum Round8: RoundScoped { static let number = 8 }
enum Round9: RoundScoped { static let number = 9 }

/// The sum of the first element of each of the ten keys, read from `values`: 45.
func readTenScopedKeys(_ values: DependencyValues) -> Int {
  values[Round0.self][0] + values[Round1.self][0] + values[Round2.self][0]
    + values[Round3.self][0] + values[Round4.self][0] + values[Round5.self][0]
    + values[Round6.self][0] + values[Round7.self][0] + values[Round8.self][0]
    + values[Round9.self][0]
}

/// A session-scoped object, to see that nothing keeps it after its instance ended.
final class Watched: Sendable {}

enum WatchedKey: DependencyKey {
  static var defaultValue: Watched { Watched() }
  static var lifetime: DependencyLifetime { .scoped(UserSession.self) }
}

/// A session-scoped cart per user label: a scope below the session that sets another label
/// builds its own, which the session owns all the same.
enum LabeledCartKey: DependencyKey {
  static var defaultValue: Resource {
    let client = DependencyValues.current[SessionClientKey.self]
    return Resource(
      "Cart " + DependencyValues.current[FlowLabelKey.self],
      settings: DependencyValues.current.asyncSettings,
      uses: [client]
    )
  }
  static var lifetime: DependencyLifetime { .scoped(UserSession.self) }
}

/// A session-scoped key whose build takes as long as the settings' build time, on its thread.
enum SlowSessionKey: DependencyKey {
  static var defaultValue: Resource {
    let settings = DependencyValues.current.asyncSettings
    settings.log.append("slow build started")
    usleep(UInt32(settings.buildMilliseconds * 1000))
    settings.log.append("slow build ended")
    return Resource("Slow", settings: settings, announcesShutdown: true)
  }
  static var lifetime: DependencyLifetime { .scoped(UserSession.self) }
}
