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

  static func isRunner(
    _ arguments: [String],
    on platform: ContextDetection.RunnerPlatform,
    variables: [String] = [],
    loadsXCTest: Bool = false
  ) -> Bool {
    ContextDetection.isTestRunner(
      environment: { variables.contains($0) ? Array("1".utf8) : nil },
      arguments: arguments,
      platform: platform,
      loadsXCTest: { loadsXCTest }
    )
  }

  @Test(arguments: [
    ["/work/.build/debug/AppPackageTests.xctest"],
    ["/work/.build/debug/AppPackageTests.xctest", "--testing-library", "swift-testing"],
    ["./AppPackageTests.xctest", "--filter", "CheckoutTests"],
  ])
  func theBundleThatSwiftTestStartsSelectsTest(arguments: [String]) {
    #expect(
      Self.detect(arguments: arguments) == ContextDetection(context: .test, source: .testRunner)
    )
    #expect(Self.isRunner(arguments, on: .apple))
    #expect(Self.isRunner(arguments, on: .other))
  }

  @Test(arguments: [
    ["/Applications/Xcode.app/Contents/Developer/usr/bin/xctest", "/b/AppTests.xctest"],
    ["/Applications/Xcode.app/Contents/Developer/usr/bin/xctest", "-XCTest", "A/b", "/b/A.xctest"],
    ["/Library/Developer/CommandLineTools/usr/bin/xctest", "/b/AppTests.xctest/"],
    [
      "/Applications/Xcode.app/Contents/Developer/usr/share/pm/swiftpm-testing-helper",
      "--test-bundle-path", "/b/AppTests.xctest/Contents/MacOS/AppTests",
      "--testing-library", "swift-testing",
    ],
    ["/tmp/AppTests.xctest/Contents/MacOS/AppTests"],
  ])
  func applesRunnersSelectTestOnlyOnApplePlatforms(arguments: [String]) {
    #expect(Self.isRunner(arguments, on: .apple))
    #expect(!Self.isRunner(arguments, on: .other))
  }

  @Test(arguments: [
    ["/usr/bin/app", "--testing-library", "swift-testing"],
    ["/usr/local/bin/FakeApp", "search", "--pattern", "--testing-library"],
    ["/usr/bin/app", "--test-bundle-path", "/b/AppTests.xctest"],
    ["/usr/local/bin/xctest", "/b/AppTests.xctest"],
    ["/Applications/Xcode.app/Contents/Developer/usr/bin/xctest"],
    ["/opt/tools/swiftpm-testing-helper", "--testing-library", "swift-testing"],
    ["/usr/bin/app.xctest.backup"],
  ])
  func argumentsOrNamesThatOnlyLookLikeARunnerSelectDefault(arguments: [String]) {
    #expect(!Self.isRunner(arguments, on: .apple))
    #expect(!Self.isRunner(arguments, on: .other))
    #expect(Self.detect(arguments: arguments).context == .default)
  }

  @Test func xcTestVariablesSelectTestOnlyInAProcessThatLoadedXCTest() {
    let app = ["/private/var/containers/Bundle/Application/X/App.app/App"]
    let variables = ["XCTestConfigurationFilePath"]
    // An app hosting its tests: the variables, and XCTest loaded.
    #expect(Self.isRunner(app, on: .apple, variables: variables, loadsXCTest: true))
    // A process a test started: it inherited the variables, but runs no tests.
    #expect(!Self.isRunner(app, on: .apple, variables: variables, loadsXCTest: false))
    #expect(!Self.isRunner(app, on: .apple, variables: [], loadsXCTest: true))
    #expect(!Self.isRunner(app, on: .other, variables: variables, loadsXCTest: true))
    #expect(Self.detect(["XCTestConfigurationFilePath": "/tmp/x"]).context == .default)
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
