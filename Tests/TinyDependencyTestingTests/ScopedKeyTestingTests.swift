import Dispatch
import Testing
import TinyDependency
import TinyDependencyFactories
import TinyDependencyLifecycle
import TinyDependencyTesting
import TinyDependencyValidation

/// Issue 35, items 2 and 3 under a test: misuse of a scoped key records an issue at the read
/// and the test goes on; the validator finds captive dependencies before anything runs.
@Suite("Scoped keys in tests: issues at the read, captive dependencies found by the validator")
struct ScopedKeyTestingTests {
  @Test func theValidatorReportsACaptiveDependencyWithItsPathWithoutBuildingLiveValues() throws {
    let report = DependencyValidator.validate([ShellKey.self])
    let finding = try #require(report.findings.first { $0.kind == .captiveDependency })
    #expect(finding.key == "AnalyticsKey")
    #expect(finding.path == ["ShellKey", "AnalyticsKey", "LoginCartKey"])
    #expect(finding.message.contains("(shared) reads LoginCartKey (scoped(Login))"))
    #expect(finding.message.contains("`.scoped(Login.self)`"))
    #expect(report.findings.count == 1)
    #expect(LiveBuilds.count.value == 0)
  }

  @Test func aReadOutsideAnyInstanceRecordsAnIssueAndBuildsInTheTestsRoot() {
    var first: Cart?
    var second: Cart?
    withKnownIssue {
      first = DependencyValues.current[LoginCartKey.self]
      second = DependencyValues.current[LoginCartKey.self]
    } matching: { issue in
      issue.description.contains("LoginCartKey is scoped to Login, but was read where no instance")
    }
    #expect(first != nil && first === second)
  }

  @Test func aCaptiveReadInATestRecordsAnIssueAndGoesOn() {
    let login = DependencyValues.current.beginScope(Login.self)
    withKnownIssue {
      _ = login.values[AnalyticsKey.self]
    } matching: { issue in
      issue.description.contains("captive dependency in the test context: AnalyticsKey (shared)")
    }
  }

  /// Issue 45, item 5: a shared value that reads a session's value through a transient key
  /// holds it all the same; the validator names the whole path.
  @Test func theValidatorFindsACaptiveDependencyThroughATransientKey() throws {
    let report = DependencyValidator.validate([BadgeKey.self])
    let finding = try #require(report.findings.first { $0.kind == .captiveDependency })
    #expect(finding.key == "BadgeKey")
    #expect(finding.path == ["BadgeKey", "CartLabelKey", "LoginCartKey"])
    #expect(finding.message.contains("(shared) reads LoginCartKey (scoped(Login))"))
    #expect(finding.message.contains("through CartLabelKey (transient)"))
    #expect(finding.message.contains("`.scoped(Login.self)`"))
    #expect(report.findings.count == 1)
  }

  /// Issue 45, item 5: the same chain read in a test records the issue at the read.
  @Test func aCaptiveReadThroughATransientKeyInATestRecordsAnIssue() {
    let login = DependencyValues.current.beginScope(Login.self)
    withKnownIssue {
      _ = login.values[BadgeKey.self]
    } matching: { issue in
      issue.description.contains("captive dependency in the test context: BadgeKey (shared)")
        && issue.description.contains("BadgeKey -> CartLabelKey -> LoginCartKey")
    }
  }

  /// Issue 45, item 9: a cached factory keeps its products in the container of the call, so a
  /// product that reads a login's cart is made once per login instance, and is no captive.
  @Test func aCachedFactorysProductReadingAScopedValueIsMadeOncePerInstance() async throws {
    let first = DependencyValues.current.beginScope(Login.self) { $0[LoginUserKey.self] = 1 }
    let second = DependencyValues.current.beginScope(Login.self) { $0[LoginUserKey.self] = 2 }
    let label = first.run { DependencyValues.current[CartLabelFactoryKey.self]("a") }
    #expect(first.run { DependencyValues.current[CartLabelFactoryKey.self]("a") } === label)
    let other = second.run { DependencyValues.current[CartLabelFactoryKey.self]("a") }
    #expect(label.text == "a 1")
    #expect(other.text == "a 2")
    try await first.end()
    try await second.end()
    // The validator agrees: a factory's product is its caller's.
    let report = DependencyValidator.validate([SampledCartLabelFactoryKey.self])
    #expect(!report.findings.contains { $0.kind == .captiveDependency }, "\(report)")
  }

  /// Cases running in parallel, each in its own test root with a session of its own.
  @Test(arguments: 0..<6)
  func parallelCasesEachWithASessionNeverShare(user: Int) async throws {
    let login = DependencyValues.current.beginScope(Login.self) { $0[LoginUserKey.self] = user }
    let cart = login.values[LoginCartKey.self]
    await Task.yield()
    #expect(cart.user == user)
    #expect(login.values[LoginCartKey.self] === cart)
    try await login.end()
  }
}

enum Login: DependencyScope {}

final class Cart: Sendable {
  let user: Int
  init(user: Int) { self.user = user }
}

/// Counts builds of live values, which validation must never make.
enum LiveBuilds {
  static let count = Counted()
}

/// `@unchecked Sendable`: `value` is only touched on `queue`.
final class Counted: @unchecked Sendable {
  private let queue = DispatchQueue(label: "Counted")
  private var stored = 0
  func add() { queue.sync { stored += 1 } }
  var value: Int { queue.sync { stored } }
}

enum LoginUserKey: DependencyKey {
  static var defaultValue: Int {
    LiveBuilds.count.add()
    return -1
  }
  static var testValue: Int { 0 }
}

enum LoginCartKey: DependencyKey {
  static var defaultValue: Cart {
    LiveBuilds.count.add()
    return Cart(user: -1)
  }
  static var testValue: Cart { Cart(user: DependencyValues.current[LoginUserKey.self]) }
  static var lifetime: DependencyLifetime { .scoped(Login.self) }
}

enum AnalyticsKey: DependencyKey {
  static var defaultValue: Int {
    LiveBuilds.count.add()
    return 0
  }
  static var testValue: Int { DependencyValues.current[LoginCartKey.self].user }
}

/// A transient label made from the login's cart: harmless alone, built anew on every read.
enum CartLabelKey: DependencyKey {
  static var defaultValue: String {
    LiveBuilds.count.add()
    return ""
  }
  static var testValue: String { "cart \(DependencyValues.current[LoginCartKey.self].user)" }
  static var lifetime: DependencyLifetime { .transient }
}

/// A process-wide badge that reads the cart through the transient label: it keeps the first
/// login's cart's label, a captive dependency through a transient key.
enum BadgeKey: DependencyKey {
  static var defaultValue: String {
    LiveBuilds.count.add()
    return ""
  }
  static var testValue: String { DependencyValues.current[CartLabelKey.self] }
}

/// A label made per argument from the login's cart.
final class CartLabel: Sendable {
  let text: String
  init(_ text: String) { self.text = text }
}

/// A shared cached factory whose products read the login's cart.
enum CartLabelFactoryKey: DependencyKey {
  static var defaultValue: DependencyFactory<String, CartLabel> {
    .cached { CartLabel("\($0) \(DependencyValues.current[LoginCartKey.self].user)") }
  }
  static var testValue: DependencyFactory<String, CartLabel> { defaultValue }
}

/// A factory traced with a sample, whose products read the login's cart.
enum SampledCartLabelFactoryKey: DependencyKey {
  static var defaultValue: DependencyFactory<String, CartLabel> {
    LiveBuilds.count.add()
    return .init { CartLabel($0) }
  }
  static var testValue: DependencyFactory<String, CartLabel> {
    .init(sample: "a") { CartLabel("\($0) \(DependencyValues.current[LoginCartKey.self].user)") }
  }
}

enum ShellKey: DependencyKey {
  static var defaultValue: Int {
    LiveBuilds.count.add()
    return 0
  }
  static var testValue: Int { DependencyValues.current[AnalyticsKey.self] }
}
