import Testing
import TinyDependency
import TinyDependencyFactories
import TinyDependencyGraph
import TinyDependencyTesting
import TinyDependencyValidation

/// A factory key with no test value of its own.
enum LiveDetailFactoryKey: DependencyKey {
  static var defaultValue: DependencyFactory<Int, String> { .init { "live detail \($0)" } }
}

/// A cached factory key with a test value.
enum TenantFactoryKey: DependencyKey {
  static var defaultValue: DependencyFactory<String, TenantClient> {
    .cached { TenantClient(tenant: $0) }
  }
  static var testValue: DependencyFactory<String, TenantClient> { defaultValue }
}

/// A client per tenant, which reads `\.greeting` when it is made.
final class TenantClient: Sendable {
  let tenant: String
  let greeting: String

  init(tenant: String) {
    @Dependency(\.greeting) var greeting
    self.tenant = tenant
    self.greeting = greeting
  }
}

/// A factory with a sample argument whose products read a key without a test value.
enum SampledFactoryKey: DependencyKey {
  static var defaultValue: DependencyFactory<Int, String> {
    .init(sample: 1) { id in "\(DependencyValues.current.liveOnly) \(id)" }
  }
  static var testValue: DependencyFactory<Int, String> { defaultValue }
}

/// A factory with a sample argument whose products read a key with a test value.
enum SampledGreetingFactoryKey: DependencyKey {
  static var defaultValue: DependencyFactory<Int, String> {
    .init(sample: 1) { id in "\(DependencyValues.current.greeting) \(id)" }
  }
  static var testValue: DependencyFactory<Int, String> { defaultValue }
}

extension DependencyValues {
  var makeLiveDetail: DependencyFactory<Int, String> {
    get { self[LiveDetailFactoryKey.self] }
    set { self[LiveDetailFactoryKey.self] = newValue }
  }

  var tenantClient: DependencyFactory<String, TenantClient> {
    get { self[TenantFactoryKey.self] }
    set { self[TenantFactoryKey.self] = newValue }
  }
}

@Suite("Factories in tests: a missing test value is reported at the call")
struct DependencyFactoryTestValueTests {
  @Test func readingAFactoryWithoutATestValueRecordsNothing() {
    @Dependency(\.makeLiveDetail) var makeLiveDetail
    _ = makeLiveDetail
  }

  @Test func callingItRecordsAnIssueNamingTheKeyAndTheArgument() {
    @Dependency(\.makeLiveDetail) var makeLiveDetail
    withKnownIssue {
      #expect(makeLiveDetail(42) == "live detail 42")
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains("LiveDetailFactoryKey has no test value")
          && $0.rawValue.contains("called in a test with 42")
      }
    }
  }

  @Test func anOverrideIsCalledWithoutAnIssue() {
    withDependencies {
      $0.makeLiveDetail = .init { "mock \($0)" }
    } operation: {
      #expect(DependencyValues.current.makeLiveDetail(1) == "mock 1")
    }
  }

  @Test(.dependency(\.makeLiveDetail, .init { "trait \($0)" }))
  func aTraitOverrideIsCalledWithoutAnIssue() {
    #expect(DependencyValues.current.makeLiveDetail(2) == "trait 2")
  }

  @Test func theValidatorReportsItAsAKeyWithoutATestValue() throws {
    let report = DependencyValidator.validate([LiveDetailFactoryKey.self, TenantFactoryKey.self])
    let finding = try #require(report.findings.first)
    #expect(report.findings.count == 1)
    #expect(finding.key == "LiveDetailFactoryKey")
    #expect(finding.kind == .missingTestValue)
  }

  @Test(.strictDependencies) func strictModeReportsItsReadLikeAnyKeys() {
    withKnownIssue {
      _ = DependencyValues.current.makeLiveDetail
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("LiveDetailFactoryKey has no testValue") }
    }
  }

  @Test func theValidatorTracesAFactoryWithItsSampleArgument() throws {
    let report = DependencyValidator.validate([SampledFactoryKey.self])
    let finding = try #require(report.findings.first { $0.kind == .liveValueInTests })
    #expect(finding.path == ["SampledFactoryKey", "LiveOnlyKey"])
    let clean = DependencyValidator.validate([SampledGreetingFactoryKey.self])
    #expect(clean.isComplete, "\(clean)")
    #expect(
      clean.graph.edges.map(\.description).contains("SampledGreetingFactoryKey -> GreetingKey")
    )
  }

  /// Issue 45, item 8: the sample call runs nested in the factory key's own build; a product
  /// that reads a key without a test value is no cycle and no self edge.
  @Test func aSampleTracedProductReadingALiveOnlyKeyIsNoSelfCycle() {
    let report = DependencyCheck.validate([SampledFactoryKey.self])
    #expect(!report.findings.contains { $0.kind == .cycle }, "\(report)")
    #expect(!report.graph.edges.contains { $0.from == $0.to }, "\(report.graph.edges)")
    #expect(report.findings.contains { $0.kind == .liveValueInTests })
  }

  // MARK: - Parallel tests

  @Test(arguments: 0..<16)
  func parallelTestsEachKeepTheirOwnCachedProducts(index: Int) {
    withDependencies {
      $0.greeting = "test \(index)"
    } operation: {
      let client = DependencyValues.current.tenantClient("acme")
      #expect(client.greeting == "test \(index)")
      #expect(DependencyValues.current.tenantClient("acme") === client)
    }
  }
}
