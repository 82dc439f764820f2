// Runs the fixture's targets and stops with a failure unless each name meant what it should.
import IssueReporting
import Neighbor
import OursOnly
import SwitchedLibrary
import TinyDependency

var failures: [String] = []

@MainActor func expect(_ actual: [String], _ expected: [String], _ what: String) {
  if actual != expected {
    failures.append("\(what): expected \(expected), got \(actual)")
  }
}

let neighbor = await Neighbor.useEveryName()
expect(
  neighbor,
  [
    "isTesting from IssueReporting",
    "ConcurrencyExtras.LockIsolated<Swift.Int>",
    "ConcurrencyExtras.ActorIsolated<Swift.Int>",
    "ConcurrencyExtras.UncheckedSendable<Swift.Int>",
  ],
  "Neighbor's types"
)
expect(
  standInCalls,
  [
    "reportIssue(message)", "reportIssue(message)", "reportIssue(message)",
    "reportIssue(error)", "reportIssue(error)",
    "withErrorReporting", "withErrorReporting async",
    "unimplemented value", "unimplemented value", "unimplemented async closure",
    "unimplemented closure", "unimplemented async throwing closure",
  ],
  "Neighbor's functions, IssueReporting's each"
)

standInCalls = []
let oursOnly = await OursOnly.useEveryName()
expect(
  oursOnly,
  [
    "isTesting is false",
    "TinyDependencyConcurrency.LockIsolated<Swift.Int>",
    "TinyDependencyConcurrency.ActorIsolated<Swift.Int>",
    "TinyDependencyConcurrency.UncheckedSendable<Swift.Int>",
  ],
  "OursOnly's types"
)
expect(standInCalls, [], "OursOnly's functions, TinyDependency's each")

// The switched library: its keys keep `liveValue`, its issues go through IssueReporting.
let live = withDependencies {
  $0.context = .default
} operation: {
  let count = SharedCount("launches")
  count.increment()
  count.increment()
  return count.value
}
expect(["\(live)"], ["2"], "SwitchedLibrary's live store")
_ = SharedCount("")
expect(standInCalls, ["reportIssue(message)"], "SwitchedLibrary's issue")
expect(["\(runsInTests)"], ["true"], "SwitchedLibrary's isTesting (the stand-in's)")
expect([observerBox()], ["ConcurrencyExtras.UncheckedSendable"], "SwitchedLibrary's box")

if !failures.isEmpty {
  fatalError("neighbor-check failed:\n" + failures.joined(separator: "\n"))
}
print("neighbor-check: every shared name meant what it should (\(neighbor.count + 8) checks)")
