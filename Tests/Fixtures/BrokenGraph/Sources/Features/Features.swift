import TinyDependency

/// Sends events; has no test value of its own, so tests would send real events.
public enum AnalyticsKey: DependencyKey {
  public static var defaultValue: String { "live analytics" }
}

/// The session reads the account, and the account the session: a cycle.
public enum SessionKey: DependencyKey {
  public static var defaultValue: String { "session of \(DependencyValues.current[AccountKey.self])" }
  public static var testValue: String { "session of \(DependencyValues.current[AccountKey.self])" }
}

/// See ``SessionKey``.
public enum AccountKey: DependencyKey {
  public static var defaultValue: String { "account in \(DependencyValues.current[SessionKey.self])" }
  public static var testValue: String { "account in \(DependencyValues.current[SessionKey.self])" }
}

/// The server's address: an input that the app must set, and the check doesn't.
public enum ServerURLKey: DependencyInputKey {
  public typealias Value = String
}

/// The API client reads the server's address.
public enum APIClientKey: DependencyKey {
  public static var defaultValue: String { "client of \(DependencyValues.current[ServerURLKey.self])" }
  public static var testValue: String { "client of \(DependencyValues.current[ServerURLKey.self])" }
}
