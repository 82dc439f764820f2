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
  func strictModeAlsoReportsABuiltInWithoutAnOverride() {
    @Dependency(\.uuid) var uuid
    withKnownIssue {
      _ = uuid()
    } matching: { issue in
      isPlaceholderIssue(issue, "uuid")
        || issue.comments.contains { $0.rawValue.contains("UUIDGeneratorKey has no testValue") }
    }
  }
}
