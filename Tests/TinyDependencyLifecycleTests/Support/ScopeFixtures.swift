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

/// A session-scoped key whose build waits until it is told to go on.
enum GatedSessionKey: DependencyKey {
  static var defaultValue: Resource {
    let settings = DependencyValues.current.asyncSettings
    settings.log.append("gated build started")
    while !settings.log.all.contains("go on") { usleepShort() }
    return Resource("Gated", settings: settings)
  }
  static var lifetime: DependencyLifetime { .scoped(UserSession.self) }
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
