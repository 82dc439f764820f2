/// A dependency value that must be shut down when its container is: a pool that closes its
/// connections, a worker that drains its queue.
///
/// ```swift
/// final class ConnectionPool: DependencyShutdown {
///   func shutdown() async throws {
///     try await closeAllConnections()
///   }
/// }
/// ```
///
/// ``TinyDependency/DependencyValues/shutdown(gracePeriod:)`` calls ``shutdown()`` on each such value the container built,
/// once, a value before every value it read while it was built.
public protocol DependencyShutdown: Sendable {
  /// Releases what the value holds; called once, after every value that read this one.
  func shutdown() async throws
}
