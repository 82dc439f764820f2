import TinyDependency

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

// Fixtures of ScopeSharingTests: keys whose values cross scopes, and objects that capture them.

/// A weak reference, to count which objects are still alive.
struct WeakBox<T: AnyObject> {
  weak var value: T?
  init(_ value: T) { self.value = value }
}

enum RequestIDKey: DependencyKey {
  static let defaultValue = "none"
}

enum CountedPoolKey: DependencyKey {
  static var defaultValue: Service {
    DependencyValues.current.buildLog.built("Pool")
    return Service("pool")
  }
}

enum SlowCountedPoolKey: DependencyKey {
  static var defaultValue: Service {
    DependencyValues.current.buildLog.built("SlowPool")
    usleep(30_000)
    return Service("slow pool")
  }
}

enum SlowGreeterKey: DependencyKey {
  static var defaultValue: Service {
    let greeting = DependencyValues.current.greeting
    usleep(30_000)
    return Service("slow greeter says \(greeting)")
  }
}

/// Echoes the request ID it was built with, slowly.
enum SlowRequestEchoKey: DependencyKey {
  static var defaultValue: Service {
    let values = DependencyValues.current
    values.buildLog.built("SlowEcho")
    usleep(30_000)
    return Service("slow echo \(values.requestID)")
  }
}

/// Echoes the request ID it was built with.
enum RequestEchoKey: DependencyKey {
  static var defaultValue: Service { Service("echo \(DependencyValues.current.requestID)") }
}

/// Combines the greeting and the request ID.
enum CombinedKey: DependencyKey {
  static var defaultValue: Service {
    let values = DependencyValues.current
    values.buildLog.built("Combined")
    return Service("\(values.greeting)/\(values.requestID)")
  }
}

extension DependencyValues {
  var requestID: String {
    get { self[RequestIDKey.self] }
    set { self[RequestIDKey.self] = newValue }
  }
  var combined: Service {
    get { self[CombinedKey.self] }
    set { self[CombinedKey.self] = newValue }
  }
}

/// A request handler built as a dependency value: its wrappers capture the request's scope.
///
/// `@unchecked Sendable`: a property wrapper's backing storage is a `var`, never written.
final class RequestHandler: @unchecked Sendable {
  @Dependency(\.greeting) var greeting
  @Dependency(\.requestID) var requestID
  @Dependency(CountedPoolKey.self) var pool
}

enum RequestHandlerKey: DependencyKey {
  static var defaultValue: RequestHandler { RequestHandler() }
}

/// Holds a handler it read while being built.
struct RequestOuter: Sendable {
  let inner: RequestHandler
}

enum RequestOuterKey: DependencyKey {
  static var defaultValue: RequestOuter {
    RequestOuter(inner: DependencyValues.current[RequestHandlerKey.self])
  }
}

/// Holds the scope it was built in.
struct EscapedScope: Sendable {
  let scope: DependencyValues.Continuation
}

enum EscapedScopeKey: DependencyKey {
  static var defaultValue: EscapedScope { EscapedScope(scope: withEscapedDependencies { $0 }) }
}

struct CombinedReader: Sendable {
  @Dependency(\.combined) var combined
}

struct TwoCombinedReaders: Sendable {
  @Dependency(\.combined) var first
  @Dependency(CombinedKey.self) var second
}
