import TinyDependency
import TinyDependencyGraph

// Keys whose reads make the graphs of DependencyGraphTests, DependencyGraphRenderingTests and
// DependencyGraphCycleTests.

enum ClockKey: DependencyKey {
  static var defaultValue: String { "clock" }
  static var lifetime: DependencyLifetime { .transient }
}

enum StoreKey: DependencyKey {
  static var defaultValue: String { "store(\(DependencyValues.current[ClockKey.self]))" }
}

enum APIKey: DependencyKey {
  static var defaultValue: String { "api(\(DependencyValues.current[ClockKey.self]))" }
}

enum AppKey: DependencyKey {
  static var defaultValue: String {
    let values = DependencyValues.current
    return "app(\(values[APIKey.self]), \(values[StoreKey.self]))"
  }
}

/// A transient key that reads a transient key of its own.
enum StampKey: DependencyKey {
  static var defaultValue: String { "stamp(\(DependencyValues.current[ClockKey.self]))" }
  static var lifetime: DependencyLifetime { .transient }
}

enum TransientUserKey: DependencyKey {
  static var defaultValue: String { "user(\(DependencyValues.current[StampKey.self]))" }
}

enum GatewayKey: DependencyKey {
  static var defaultValue: String { "gateway(\(DependencyValues.current[ServerKey.self]))" }
}

enum First {
  enum SameNameKey: DependencyKey { static let defaultValue = 1 }
}

enum Second {
  enum SameNameKey: DependencyKey { static let defaultValue = 2 }
}

enum BaseURLKey: DependencyInputKey {
  typealias Value = String
}

enum ServerKey: DependencyKey {
  static var defaultValue: String { "server at \(DependencyValues.current[BaseURLKey.self])" }
}
