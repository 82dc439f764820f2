import Dispatch
import Testing
import TinyDependency
import TinyDependencyLifecycle
import TinyDependencyTesting
import TinyDependencyValidation

@Suite("The testing product reports unprepared async keys and live fallbacks of async keys")
struct AsyncKeyValidationTests {
  @Test func anUnpreparedAsyncKeyIsAFindingOfItsOwnKind() throws {
    let report = DependencyValidator.validate([ValidatedPoolKey.self])
    let finding = try #require(report.findings.first)
    #expect(report.findings.count == 1)
    #expect(finding.key == "ValidatedPoolKey")
    #expect(finding.kind == .unpreparedAsyncKey)
    #expect(finding.message.contains("prepare([ValidatedPoolKey.self])"))
    #expect(ValidatedPoolKey.builds.withLock { $0 } == 0)
  }

  @Test func anAsyncKeySetInConfigurePasses() {
    let report = DependencyValidator.validate([ValidatedPoolKey.self]) {
      $0[ValidatedPoolKey.self] = "set"
    }
    #expect(report.isComplete, "\(report)")
  }

  @Test(.strictDependencies)
  func preparingWithTheLiveBuilderIsAnIssueAtTheTest() async throws {
    try await withKnownIssue {
      try await DependencyValues.current.prepare([LivePoolKey.self])
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("LivePoolKey has no makeTest()") }
        && issue.sourceLocation?.fileName == "AsyncKeyValidationTests.swift"
    }
    #expect(DependencyValues.current[LivePoolKey.self] == "live pool")
  }
}

/// Counts its builds: the validator must not build it.
enum ValidatedPoolKey: AsyncDependencyKey {
  static let builds = ValidationCounter()

  static func makeDefault() async throws -> String {
    builds.withLock { $0 += 1 }
    return "pool"
  }
}

/// Has only a live builder.
enum LivePoolKey: AsyncDependencyKey {
  static func makeDefault() async throws -> String { "live pool" }
}

/// A counter behind a serial queue.
///
/// `@unchecked Sendable`: `count` is only touched on `queue`.
final class ValidationCounter: @unchecked Sendable {
  private let queue = DispatchQueue(label: "ValidationCounter")
  private var count = 0

  func withLock<R>(_ body: (inout Int) -> R) -> R { queue.sync { body(&count) } }
}
