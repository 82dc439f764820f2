import Dispatch
import TinyDependency
import TinyDependencyLifecycle

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// A value behind a serial queue, safe to touch from any task.
///
/// `@unchecked Sendable`: `value` is only touched on `queue`.
final class QueueLocked<Value>: @unchecked Sendable {
  private let queue = DispatchQueue(label: "QueueLocked")
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<R>(_ body: (inout Value) -> R) -> R { queue.sync { body(&value) } }
}

/// What happened, in order, in one container: builds starting and ending, shutdowns.
final class EventLog: Sendable {
  private let events = QueueLocked<[String]>([])

  func append(_ event: String) {
    events.withLock { $0.append(event) }
  }

  var all: [String] { events.withLock { $0 } }

  func count(_ event: String) -> Int { all.filter { $0 == event }.count }

  func index(of event: String) -> Int? { all.firstIndex(of: event) }
}

/// The log of a container, and how its async builds behave; set per test on a container.
struct AsyncSettings: Sendable {
  var log = EventLog()
  /// Keys whose build throws ``Refused``.
  var failing: Set<String> = []
  /// Keys whose shutdown throws ``Refused``.
  var failingShutdown: Set<String> = []
  /// How long each build sleeps, in milliseconds.
  var buildMilliseconds: UInt64 = 0
  /// Holds ``IgnoresCancellationKey``'s build until the test opens it.
  var gate = Gate()
}

/// A gate that builds wait at without holding a thread and without seeing cancellation.
final class Gate: Sendable {
  private let state = QueueLocked<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>(
    (false, [])
  )

  func wait() async {
    await withCheckedContinuation { continuation in
      let isOpen = state.withLock { state in
        if !state.isOpen { state.waiters.append(continuation) }
        return state.isOpen
      }
      if isOpen { continuation.resume() }
    }
  }

  func open() {
    let waiters = state.withLock { state in
      state.isOpen = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}

enum AsyncSettingsKey: DependencyKey {
  static var defaultValue: AsyncSettings { AsyncSettings() }
}

extension DependencyValues {
  var asyncSettings: AsyncSettings {
    get { self[AsyncSettingsKey.self] }
    set { self[AsyncSettingsKey.self] = newValue }
  }
}

struct Refused: Error, CustomStringConvertible {
  var description: String { "connection refused" }
}

/// A value with a shutdown that logs, and fails when the settings say so.
final class Resource: DependencyShutdown, CustomStringConvertible {
  let name: String
  let settings: AsyncSettings
  let uses: [Resource]
  /// Whether its shutdown is written to standard error too, for an exit test's parent to see.
  let announcesShutdown: Bool
  private let shutdowns = QueueLocked(0)

  init(
    _ name: String,
    settings: AsyncSettings,
    uses: [Resource] = [],
    announcesShutdown: Bool = false
  ) {
    self.name = name
    self.settings = settings
    self.uses = uses
    self.announcesShutdown = announcesShutdown
  }

  var description: String { name }
  var shutdownCount: Int { shutdowns.withLock { $0 } }

  func shutdown() async throws {
    shutdowns.withLock { $0 += 1 }
    settings.log.append("shutdown \(name)")
    if announcesShutdown {
      let line = Array("shut down: \(name)\n".utf8)
      _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
    if settings.buildMilliseconds > 0 {
      try? await Task.sleep(nanoseconds: settings.buildMilliseconds * 1_000_000)
    }
    settings.log.append("shutdown done \(name)")
    if settings.failingShutdown.contains(name) { throw Refused() }
  }
}

/// The body of every fixture build: log, sleep, maybe fail, make a resource.
func buildResource(_ name: String, uses: [Resource] = []) async throws -> Resource {
  let settings = DependencyValues.current.asyncSettings
  settings.log.append("start \(name)")
  if settings.buildMilliseconds > 0 {
    try await Task.sleep(nanoseconds: settings.buildMilliseconds * 1_000_000)
  }
  if settings.failing.contains(name) {
    settings.log.append("failed \(name)")
    throw Refused()
  }
  settings.log.append("end \(name)")
  return Resource(name, settings: settings, uses: uses)
}

// A pool, two services that await it, and an app that awaits both services.

enum PoolKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Resource { try await buildResource("Pool") }
  static func makeTest() async throws -> Resource { try await buildResource("Pool") }
}

enum UsersKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Resource {
    let pool = try await DependencyValues.current.prepared(PoolKey.self)
    return try await buildResource("Users", uses: [pool])
  }
}

enum OrdersKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Resource {
    let pool = try await DependencyValues.current.prepared(PoolKey.self)
    return try await buildResource("Orders", uses: [pool])
  }
}

enum FrontKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Resource {
    async let users = DependencyValues.current.prepared(UsersKey.self)
    async let orders = DependencyValues.current.prepared(OrdersKey.self)
    return try await buildResource("Front", uses: [users, orders])
  }
}

/// A synchronous key read after preparation: reads an async key.
enum UsersHandlerKey: DependencyKey {
  static var defaultValue: String { "handler(\(DependencyValues.current[UsersKey.self]))" }
}

/// An async key whose build reads a synchronous key.
enum PrefixKey: DependencyKey {
  static let defaultValue = "db"
}

enum NamedPoolKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Resource {
    let prefix = DependencyValues.current[PrefixKey.self]
    return try await buildResource("\(prefix)-pool")
  }
}

/// Sleeps for an hour, but stops when cancelled.
enum SlowKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Resource {
    DependencyValues.current.asyncSettings.log.append("start Slow")
    try await Task.sleep(nanoseconds: 3_600_000_000_000)
    return try await buildResource("Slow")
  }
}

/// Ignores cancellation for a while, then returns a value anyway.
enum StubbornKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Resource {
    let settings = DependencyValues.current.asyncSettings
    settings.log.append("start Stubborn")
    // `DispatchTime`, not `ContinuousClock`, which needs macOS 13.
    let deadline = DispatchTime.now().uptimeNanoseconds + settings.buildMilliseconds * 1_000_000
    while DispatchTime.now().uptimeNanoseconds < deadline { await Task.yield() }
    settings.log.append("end Stubborn")
    return Resource("Stubborn", settings: settings)
  }
}

/// Ignores its cancellation: ends when the test opens its container's gate, holding no thread
/// meanwhile.
enum IgnoresCancellationKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Resource {
    let settings = DependencyValues.current.asyncSettings
    settings.log.append("start Late")
    await settings.gate.wait()
    settings.log.append("end Late")
    return Resource("Late", settings: settings)
  }
}

/// Fails after its sibling in a prepare started; used to see the sibling cancelled.
enum FailingKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Resource {
    try await Task.sleep(nanoseconds: 20_000_000)
    throw Refused()
  }
}

/// Has only a live builder: tests that use it see the fallback.
enum LiveOnlyKey: AsyncDependencyKey {
  static func makeDefault() async throws -> String { "live" }
}

/// Has a value per context.
enum ContextualKey: AsyncDependencyKey {
  static func makeDefault() async throws -> String { "live" }
  static func makeTest() async throws -> String { "test" }
  static func makePreview() async throws -> String { "preview" }
}

// Cycles.

enum CycleAKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Int {
    try await DependencyValues.current.prepared(CycleBKey.self) + 1
  }
}

enum CycleBKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Int {
    try await DependencyValues.current.prepared(CycleAKey.self) + 1
  }
}

enum SelfAwaitingKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Int {
    try await DependencyValues.current.prepared(SelfAwaitingKey.self)
  }
}

/// A container for the default context with fresh settings, and the log to inspect.
func asyncContainer(
  failing: Set<String> = [],
  failingShutdown: Set<String> = [],
  buildMilliseconds: UInt64 = 0
) -> (values: DependencyValues, log: EventLog) {
  var values = DependencyValues(context: .default)
  let settings = AsyncSettings(
    failing: failing,
    failingShutdown: failingShutdown,
    buildMilliseconds: buildMilliseconds
  )
  values.asyncSettings = settings
  return (values, settings.log)
}

/// Awaits ``SlowKey``: its deadline is SlowKey's.
enum WaitsForSlowKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Resource {
    try await DependencyValues.current.prepared(SlowKey.self)
  }
}

/// Awaits ``SlowKey`` and ``PairQuickKey`` together: once the quick one is built, its deadline
/// is SlowKey's.
enum WaitsForSlowAndQuickKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Int {
    try await DependencyValues.current.prepare([SlowKey.self, PairQuickKey.self])
    return 1
  }
}

/// A synchronous key whose value needs a shutdown too.
enum CacheKey: DependencyKey {
  static var defaultValue: Resource {
    Resource("Cache", settings: DependencyValues.current.asyncSettings)
  }
}

/// An async key whose build reads the synchronous ``CacheKey``.
enum CachedUsersKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Resource {
    let cache = DependencyValues.current[CacheKey.self]
    return try await buildResource("CachedUsers", uses: [cache])
  }
}
