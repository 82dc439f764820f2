import TinyDependency
import TinyDependencyConcurrency

struct Failure: Error {}

/// Uses the same names with the migration guide's imports alone, and returns the module each
/// type came from.
public func useEveryName() async -> [String] {
  withErrorReporting { () throws in }
  await withErrorReporting { () async throws in }
  let track: @Sendable (String) -> Void = unimplemented("Analytics.track")
  let value: Int = unimplemented("Settings.count", placeholder: 0)
  _ = (track, value)
  let lock = LockIsolated(0)
  let actor = ActorIsolated(0)
  @UncheckedSendable var unchecked = 0
  unchecked += 1
  reportIssue("OursOnly: a plain string, on standard error")
  reportIssue(Failure(), "OursOnly: an error, on standard error")
  return [
    isTesting ? "isTesting is true" : "isTesting is false",
    String(reflecting: type(of: lock)),
    String(reflecting: type(of: actor)),
    String(reflecting: type(of: $unchecked)),
  ]
}
