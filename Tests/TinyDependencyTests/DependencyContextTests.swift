import Testing

@testable import TinyDependency

@Suite("Choosing the dependency context")
struct DependencyContextTests {
  /// An environment made of the given variables, as raw bytes.
  static func environment(_ variables: [String: [UInt8]]) -> (String) -> [UInt8]? {
    { variables[$0] }
  }

  static func detect(
    _ variables: [String: String] = [:],
    arguments: [String] = ["/usr/bin/app"]
  ) -> ContextDetection {
    ContextDetection.detect(
      environment: environment(variables.mapValues { Array($0.utf8) }),
      arguments: arguments
    )
  }

  // MARK: - Parsing

  @Test(arguments: [
    ("default", DependencyContext.default), ("live", .default), ("test", .test),
    ("preview", .preview), ("  Test\n", .test), ("LIVE", .default), ("\tPreView ", .preview),
  ])
  func parsesNamesTrimmedAndCaseInsensitive(text: String, expected: DependencyContext) {
    #expect(DependencyContext(parsing: text) == expected)
  }

  @Test(arguments: ["", "   ", "junk", "tests", "live!", "dëfault", "prod"])
  func rejectsAnythingElse(text: String) {
    #expect(DependencyContext(parsing: text) == nil)
  }

  @Test func liveIsAnotherNameForDefault() {
    #expect(DependencyContext.live == .default)
    #expect(DependencyContext.allCases.map(\.description) == ["default", "test", "preview"])
  }

  // MARK: - Detection order

  @Test func variableWinsOverPreviewAndTestRunner() {
    let detection = Self.detect(
      ["TINY_DEPENDENCY_CONTEXT": "live", "XCODE_RUNNING_FOR_PREVIEWS": "1"],
      arguments: ["/tmp/AppPackageTests.xctest"]
    )
    #expect(detection == ContextDetection(context: .default, source: .environmentVariable))
  }

  @Test func emptyVariableCountsAsUnset() {
    let detection = Self.detect(
      ["TINY_DEPENDENCY_CONTEXT": "  "],
      arguments: ["/tmp/AppPackageTests.xctest"]
    )
    #expect(detection == ContextDetection(context: .test, source: .testRunner))
  }

  @Test func junkVariableIsIgnoredWithOneWarningNamingValueAndAcceptedOnes() throws {
    let detection = Self.detect(["TINY_DEPENDENCY_CONTEXT": "staging"])
    #expect(detection.context == .default)
    #expect(detection.source == .fallback)
    let warning = try #require(detection.warning)
    #expect(warning.contains("TINY_DEPENDENCY_CONTEXT=\"staging\""))
    #expect(warning.contains("default, live, test, preview"))
  }

  @Test func junkVariableStillLetsTheTestRunnerDecide() {
    let detection = Self.detect(
      ["TINY_DEPENDENCY_CONTEXT": "junk"],
      arguments: ["/tmp/AppPackageTests.xctest"]
    )
    #expect(detection.context == .test)
    #expect(detection.warning != nil)
  }

  @Test func nonUTF8AndLongValuesAreQuotedReadably() throws {
    let bytes: [UInt8] = [0x74, 0xFF, 0x65, 0x22]
    let detection = ContextDetection.detect(
      environment: Self.environment(["TINY_DEPENDENCY_CONTEXT": bytes]),
      arguments: []
    )
    #expect(try #require(detection.warning).contains(#""t\xFFe\"""#))

    let long = ContextDetection.quoted(Array(repeating: 0x61, count: 5_000))
    #expect(long.hasSuffix("… (5000 bytes)"))
    #expect(long.count < 100)
  }

  @Test func previewFlagSelectsPreview() {
    let detection = Self.detect(
      ["XCODE_RUNNING_FOR_PREVIEWS": "1"],
      arguments: ["/tmp/AppPackageTests.xctest"]
    )
    #expect(detection == ContextDetection(context: .preview, source: .preview))
    #expect(Self.detect(["XCODE_RUNNING_FOR_PREVIEWS": "0"]).context == .default)
  }

  @Test(arguments: [
    ["/work/.build/debug/AppPackageTests.xctest"],
    ["/work/.build/debug/AppPackageTests.xctest", "--testing-library", "swift-testing"],
    ["/usr/bin/app", "--testing-library", "swift-testing"],
    ["/Applications/Xcode.app/Contents/Developer/usr/bin/xctest", "Bundle.xctest"],
    ["/usr/lib/swift/pm/swiftpm-testing-helper", "--test-bundle-path", "x"],
    ["/tmp/AppTests.xctest/Contents/MacOS/AppTests"],
  ])
  func testRunnersSelectTest(arguments: [String]) {
    #expect(
      Self.detect(arguments: arguments) == ContextDetection(context: .test, source: .testRunner)
    )
  }

  @Test func xcodeTestVariablesSelectTest() {
    let detection = Self.detect(["XCTestConfigurationFilePath": "/tmp/x.xctestconfiguration"])
    #expect(detection.context == .test)
  }

  @Test func anOrdinaryProcessSelectsDefault() {
    let detection = Self.detect(arguments: ["/usr/local/bin/server", "--port", "8080"])
    #expect(detection == ContextDetection(context: .default, source: .fallback))
  }

  // MARK: - This process

  @Test func thisTestProcessIsDetectedAsTest() {
    #expect(DependencyContext.detected == .test)
    #expect(DependencyValues.current.context == .test)
    #expect(DependencyValues.current.contextName == "test")
  }

  @Test func explicitContextWinsOverDetection() {
    #expect(DependencyValues(context: .default).contextName == "live")
    withDependencies {
      $0.context = .live
    } operation: {
      #expect(DependencyValues.current.contextName == "live")
    }
  }
}

extension ContextDetection {
  init(context: DependencyContext, source: Source) {
    self.init(context: context, source: source, warning: nil)
  }
}
