import TinyDependency

/// Sends events; has no test value of its own, so tests would send real events.
enum AnalyticsKey: DependencyKey {
  static var defaultValue: String { "live analytics" }
}

/// The session reads the account, and the account the session: a cycle.
enum SessionKey: DependencyKey {
  static var defaultValue: String { "session of \(DependencyValues.current[AccountKey.self])" }
  static var testValue: String { "session of \(DependencyValues.current[AccountKey.self])" }
}

/// See ``SessionKey``.
enum AccountKey: DependencyKey {
  static var defaultValue: String { "account in \(DependencyValues.current[SessionKey.self])" }
  static var testValue: String { "account in \(DependencyValues.current[SessionKey.self])" }
}

/// The server's address: an input that the app must set, and the check doesn't.
enum ServerURLKey: DependencyInputKey {
  typealias Value = String
}

/// The API client reads the server's address.
enum APIClientKey: DependencyKey {
  static var defaultValue: String { "client of \(DependencyValues.current[ServerURLKey.self])" }
  static var testValue: String { "client of \(DependencyValues.current[ServerURLKey.self])" }
}
