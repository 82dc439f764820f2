import TinyDependency

// Keys for the command-line check's tests: a clean set, and one of each problem.

/// Counts how many times a live value was built, for the tests that no live value is built.
enum LiveBuilds {
  private static let count = Locked(0)
  static var total: Int { count.withLock { $0 } }
  static func note() { count.withLock { $0 += 1 } }
}

struct Endpoint: Sendable { var url: String }

enum EndpointKey: DependencyKey {
  static var defaultValue: Endpoint {
    LiveBuilds.note()
    return Endpoint(url: "https://example.com")
  }
  static let testValue = Endpoint(url: "test://")
  static let previewValue = Endpoint(url: "preview://")
}

enum ClientKey: DependencyKey {
  static var defaultValue: String {
    LiveBuilds.note()
    // Live clients also report to analytics: an edge only a live run shows.
    let analytics = DependencyValues.current[AnalyticsKey.self]
    return "live client of \(DependencyValues.current[EndpointKey.self].url) with \(analytics)"
  }
  static var testValue: String { "client of \(DependencyValues.current[EndpointKey.self].url)" }
}

enum FeedKey: DependencyKey {
  static var defaultValue: [String] {
    LiveBuilds.note()
    return [DependencyValues.current[ClientKey.self]]
  }
  static var testValue: [String] { [DependencyValues.current[ClientKey.self]] }
  static var previewValue: [String] { ["preview feed"] }
}

/// Has no test value of its own.
enum AnalyticsKey: DependencyKey {
  static var defaultValue: String {
    LiveBuilds.note()
    return "live analytics"
  }
}

/// Its test value reads a key without one.
enum ReportsKey: DependencyKey {
  static var defaultValue: String { "live reports" }
  static var testValue: String { "reports with \(DependencyValues.current[AnalyticsKey.self])" }
}

enum CycleAKey: DependencyKey {
  static var defaultValue: Int { DependencyValues.current[CycleBKey.self] }
  static var testValue: Int { DependencyValues.current[CycleBKey.self] }
}

enum CycleBKey: DependencyKey {
  static var defaultValue: Int { DependencyValues.current[CycleAKey.self] }
  static var testValue: Int { DependencyValues.current[CycleAKey.self] }
}

enum TenantKey: DependencyInputKey {
  typealias Value = String
}

enum InvoiceKey: DependencyKey {
  static var defaultValue: String { "live invoice" }
  static var testValue: String { "invoice for \(DependencyValues.current[TenantKey.self])" }
}

/// The clean set: every key has a test value of its own, and nothing is unset.
let cleanKeys: [any DependencyKey.Type] = [EndpointKey.self, ClientKey.self, FeedKey.self]
