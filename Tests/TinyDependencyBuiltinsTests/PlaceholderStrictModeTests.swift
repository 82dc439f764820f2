import Foundation
import Testing
import TinyDependency
import TinyDependencyBuiltins
import TinyDependencyTesting

@Suite("Built-ins under strict mode")
struct PlaceholderStrictModeTests {
  @Test(.strictDependencies, .dependency(\.date.now, Date(timeIntervalSince1970: 0)))
  func anOverriddenBuiltInIsNoIssueInStrictMode() {
    @Dependency(\.date.now) var now
    #expect(now == Date(timeIntervalSince1970: 0))
  }

  @Test(.strictDependencies)
  func strictModeReportsEachUseOfABuiltInOnceByItsKeyPath() {
    @Dependency(\.uuid) var uuid
    let issues = Tally()
    withKnownIssue {
      _ = uuid()
      _ = uuid()
    } matching: { issue in
      issues.record(issue.comments.map(\.rawValue).joined())
      // Only the placeholder's issue, naming `\.uuid` and the override to write: the key's
      // type is internal, and the test got the placeholder, not a live value.
      return isPlaceholderIssue(issue, "uuid")
        && issue.comments.contains { $0.rawValue.contains("$0.uuid = .incrementing") }
    }
    #expect(issues.count == 2, "one issue per use: \(issues.all)")
  }

  @Test(.strictDependencies)
  func strictModeReportsABuiltInReadOnceByItsKeyPath() {
    let issues = Tally()
    withKnownIssue {
      _ = DependencyValues.current.timeZone
    } matching: { issue in
      issues.record(issue.comments.map(\.rawValue).joined())
      return isPlaceholderIssue(issue, "timeZone")
    }
    #expect(issues.count == 1, "\(issues.all)")
  }
}
