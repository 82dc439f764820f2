import Testing
import TinyDependency
import TinyDependencyConcurrency

// An interface module's client, as swift-dependencies' "Live, preview and test" article declares
// one: a test value, and no live value.
struct AnalyticsClient: Sendable {
  var track: @Sendable (_ event: String, _ properties: [String: String]) async throws -> Void
}

extension AnalyticsClient: TestDependencyKey {
  static let testValue = Self(
    track: unimplemented("AnalyticsClient.track")
  )
}

extension DependencyValues {
  var analytics: AnalyticsClient {
    get { self[AnalyticsClient.self] }
    set { self[AnalyticsClient.self] = newValue }
  }
}

// A client split across two modules: its interface declares test and preview values...
struct GreetingClient: Sendable {
  var greet: @Sendable (_ name: String) -> String
}

extension GreetingClient: TestDependencyKey {
  static let testValue = Self(greet: { "test hello, \($0)" })
  static let previewValue = Self(greet: { "preview hello, \($0)" })
}

/// ...and registers its property where only the `TestDependencyKey` conformance is known.
func greetingClient(in values: DependencyValues) -> GreetingClient {
  interfaceRead(GreetingClient.self, in: values)
}

func interfaceRead<Key: TestDependencyKey>(_ key: Key.Type, in values: DependencyValues)
  -> Key.Value
{
  values[Key.self]
}

func interfaceWrite<Key: TestDependencyKey>(
  _ key: Key.Type,
  _ value: Key.Value,
  in values: inout DependencyValues
) {
  values[Key.self] = value
}

// The live module adds the live value.
extension GreetingClient: DependencyKey {
  static let defaultValue = Self(greet: { "hello, \($0)" })
}

/// A key with both conformances in one module: the compiler picks the `DependencyKey` fallback
/// for its preview, as it does for swift-dependencies' keys. (Split across two modules, the
/// interface module's conformance picks the test value: `SplitKeyAcrossModulesTests`.)
enum SplitFlagKey: TestDependencyKey {
  static let testValue = "test split"
}

extension SplitFlagKey: DependencyKey {
  static let defaultValue = "live split"
}

/// A key with a test value only, whose preview falls back to it.
enum FlagKey: TestDependencyKey {
  static let testValue = "test flag"
}

/// A plain key, whose preview falls back to its default.
enum PlainFlagKey: DependencyKey {
  static let defaultValue = "live flag"
  static let testValue = "test flag"
}

@Suite("TestDependencyKey declares test and preview values without a live one")
struct TestDependencyKeyTests {
  @Test func anInterfaceKeyIsReadAndOverriddenInTests() async throws {
    @Dependency(\.analytics) var analytics
    await withKnownIssue {
      await #expect(throws: UnimplementedError.self) {
        try await analytics.track("signed in", [:])
      }
    } matching: { issue in
      mentions(issue, "Unimplemented: AnalyticsClient.track")
    }
    let events = LockIsolated<[String]>([])
    try await withDependencies {
      $0.analytics.track = { event, _ in events.withValue { $0.append(event) } }
    } operation: {
      try await analytics.track("signed in", [:])
    }
    #expect(events.value == ["signed in"])
  }

  @Test func previewFallsBackToTheTestValueForATestKeyAndToTheDefaultForAPlainKey() {
    let preview = DependencyValues(context: .preview)
    #expect(preview[FlagKey.self] == "test flag")
    #expect(preview[PlainFlagKey.self] == "live flag")
    #expect(DependencyValues(context: .test)[FlagKey.self] == "test flag")
    #expect(preview[SplitFlagKey.self] == "live split")
    #expect(interfaceRead(SplitFlagKey.self, in: preview) == "live split")
    #expect(DependencyValues(context: .default)[SplitFlagKey.self] == "live split")
  }

  @Test func readingAKeyWithoutALiveValueInTheDefaultContextIsReported() {
    let live = DependencyValues(context: .default)
    withKnownIssue {
      #expect(live[FlagKey.self] == "test flag")
    } matching: { issue in
      mentions(issue, "FlagKey has no live value")
        && mentions(issue, "Conform it to DependencyKey with a defaultValue")
    }
  }

  @Test func aLiveConformanceElsewhereIsUsedByTheInterfacesProperty() {
    #expect(greetingClient(in: DependencyValues(context: .default)).greet("Blob") == "hello, Blob")
    #expect(
      greetingClient(in: DependencyValues(context: .test)).greet("Blob") == "test hello, Blob"
    )
    #expect(
      greetingClient(in: DependencyValues(context: .preview)).greet("Blob") == "preview hello, Blob"
    )
  }

  @Test func bothConformancesShareOneValue() {
    var values = DependencyValues(context: .default)
    interfaceWrite(GreetingClient.self, GreetingClient(greet: { "hi, \($0)" }), in: &values)
    #expect(values[GreetingClient.self].greet("Blob") == "hi, Blob")
    values[GreetingClient.self] = GreetingClient(greet: { "hey, \($0)" })
    #expect(greetingClient(in: values).greet("Blob") == "hey, Blob")
  }

  @Test func aWrapperReadsATestKeyByItsType() {
    @Dependency(FlagKey.self) var flag
    #expect(flag == "test flag")
  }
}
