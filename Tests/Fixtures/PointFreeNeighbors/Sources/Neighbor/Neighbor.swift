import ConcurrencyExtras
import IssueReporting
import TinyDependency

struct Failure: Error {}

/// A client whose test double is made with `unimplemented`, as in a swift-dependencies app.
struct Analytics: Sendable {
  var track: @Sendable (String) -> Void
  var fetch: @Sendable (Int) async throws -> String
}

extension Analytics: DependencyKey {
  static let defaultValue = Analytics(track: { _ in }, fetch: { "\($0)" })
  static let testValue = Analytics(
    track: unimplemented("Analytics.track"),
    fetch: unimplemented("Analytics.fetch")
  )
}

/// Uses every name that TinyDependency and IssueReporting or ConcurrencyExtras both declare,
/// unqualified, and returns the module each type and `isTesting` came from.
public func useEveryName() async -> [String] {
  reportIssue("plain string")
  reportIssue("interpolated \(1)")
  reportIssue()
  reportIssue(Failure())
  reportIssue(Failure(), "with a message")
  withErrorReporting { throw Failure() }
  await withErrorReporting { () async throws in throw Failure() }
  let value: Int = unimplemented("Settings.count", placeholder: 0)
  let valueWithoutDescription: Int = unimplemented(placeholder: 0)
  let asyncValue: @Sendable () async -> Int = unimplemented("Settings.load", placeholder: 0)
  _ = Analytics.testValue
  _ = (value, valueWithoutDescription, asyncValue)
  let lock = LockIsolated(0)
  let actor = ActorIsolated(0)
  @UncheckedSendable var unchecked = 0
  unchecked += 1
  return [
    isTesting ? "isTesting from IssueReporting" : "isTesting from TinyDependency",
    String(reflecting: type(of: lock)),
    String(reflecting: type(of: actor)),
    String(reflecting: type(of: $unchecked)),
  ]
}
