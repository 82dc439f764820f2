import Foundation
import Testing
import TinyDependency
import TinyDependencyBuiltins
import TinyDependencyTesting
import XCTest

/// The variable that enables the probes below, run only in child processes.
let xcTestFailureProbe = "TINY_DEPENDENCY_XCTEST_FAILURE_PROBE"

/// Three methods that must each fail: the first one the process runs among them.
final class XCTestFirstMethodProbe: XCTestCase {
  override func setUpWithError() throws {
    try XCTSkipUnless(ProcessInfo.processInfo.environment[xcTestFailureProbe] == "1")
  }

  func test1ReportsAnIssue() {
    reportIssue("first method's issue")
  }

  func test2CallsAnUnimplementedEndpoint() {
    let endpoint: @Sendable () -> Void = unimplemented("Probe.endpoint")
    endpoint()
  }

  func test3ReportsAnIssue() {
    reportIssue("third method's issue")
  }
}

/// Strict mode around every method, and an override nothing reads inside the method.
final class XCTestInnermostCallProbe: XCTestCase {
  override func invokeTest() {
    withTestDependencies(strict: true) { super.invokeTest() }
  }

  func testAnUnusedOverrideInsideTheMethod() throws {
    try XCTSkipUnless(ProcessInfo.processInfo.environment[xcTestFailureProbe] == "1")
    withTestDependencies({ $0[ProbeKey.self] = "never read" }) {  // the failure is recorded here
    }
  }

  static let innermostLine = 39
}

/// Placeholders used in XCTest methods.
final class XCTestPlaceholderProbe: XCTestCase {
  override func setUpWithError() throws {
    try XCTSkipUnless(ProcessInfo.processInfo.environment[xcTestFailureProbe] == "1")
  }

  /// The first method the process runs: the registry starts observing XCTest here.
  func test0ReadsADependency() {
    XCTAssertEqual(DependencyValues.current[ProbeKey.self], "test")
  }

  func test1CallsAPlaceholder() {
    @Dependency(\.uuid) var uuid
    _ = uuid()  // the failure is recorded here
  }

  func test2ReadsAPlaceholderInsideTheHelper() {
    withTestDependencies {  // the failure is recorded here
      _ = DependencyValues.current.date.now
    }
  }

  static let callLine = 59
  static let helperLine = 63
}

enum ProbeKey: DependencyKey {
  static let defaultValue = "live"
  static let testValue = "test"
}

@Suite("XCTest failures land in the running method")
struct XCTestFailuresTests {
  /// Runs XCTest `filter` of this bundle in a child process with the probes enabled.
  func runXCTest(_ filter: String) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["TinyDependencyBuiltinsTests." + filter]
    var environment = ProcessInfo.processInfo.environment
    environment[xcTestFailureProbe] = "1"
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  @Test func theFirstMethodThatReportsFailsToo() throws {
    let (status, text) = try runXCTest("XCTestFirstMethodProbe")
    #expect(status != 0)
    #expect(text.contains("Executed 3 tests, with 3 failures"), "\(text)")
    // XCTest names the first method to no one: its failure is recorded through XCTest's
    // current test, with the call's site in the message.
    #expect(text.contains("first method's issue (at TinyDependencyBuiltinsTests/XCTestFailures"))
    #expect(!text.contains("TinyDependency: first method's issue"), "not on standard error")
  }

  @Test func strictModesUnusedOverrideFailsAtTheInnermostCall() throws {
    let (status, text) = try runXCTest("XCTestInnermostCallProbe")
    #expect(status != 0)
    #expect(text.contains("overrode ProbeKey but nothing read it"), "\(text)")
    #expect(text.contains("XCTestFailuresTests.swift:\(XCTestInnermostCallProbe.innermostLine)"))
  }

  @Test func aPlaceholderFailurePointsAtTheTestsCall() throws {
    let (status, text) = try runXCTest("XCTestPlaceholderProbe")
    #expect(status != 0)
    #expect(text.contains("Executed 3 tests, with 2 failures"), "\(text)")
    #expect(!text.contains("Placeholder.swift"), "\(text)")
    #expect(text.contains("XCTestFailuresTests.swift:\(XCTestPlaceholderProbe.callLine): error"))
    #expect(
      text.contains("XCTestFailuresTests.swift:\(XCTestPlaceholderProbe.helperLine): error")
    )
  }
}
