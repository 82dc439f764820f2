import Foundation
import Testing
import TinyDependency
import TinyDependencyTesting
import XCTest

/// XCTest cases of the integration: one that passes, and one that must fail, run on its own by
/// `XCTestIntegrationTests` in a child process (XCTest on Linux has no expected failures).
final class XCTestDependenciesProbe: XCTestCase {
  static let probeVariable = "TINY_DEPENDENCY_XCTEST_PROBE"

  func testOverridesApplyInsideTheHelper() {
    withTestDependencies({ $0.greeting = "xctest hello" }) {
      XCTAssertEqual(DependencyValues.current.greeting, "xctest hello")
      XCTAssertEqual(DependencyValues.current.context, .test)
    }
  }

  func testStrictModeFailsOnALiveFallback() throws {
    try XCTSkipUnless(
      ProcessInfo.processInfo.environment[Self.probeVariable] == "1",
      "run by XCTestIntegrationTests, which expects it to fail"
    )
    withTestDependencies(strict: true) {  // the failure is recorded on this line
      _ = DependencyValues.current[LiveOnlyKey.self]
    }
  }

  /// The line of the `withTestDependencies` call above.
  static let strictCallLine = 24
}

@Suite("XCTest integration")
struct XCTestIntegrationTests {
  @Test func strictModeFailsTheXCTestThatReadALiveFallback() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = [
      "TinyDependencyTestingTests.XCTestDependenciesProbe/testStrictModeFailsOnALiveFallback"
    ]
    var environment = ProcessInfo.processInfo.environment
    environment[XCTestDependenciesProbe.probeVariable] = "1"
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    #expect(process.terminationStatus != 0)
    #expect(text.contains("LiveOnlyKey has no testValue of its own"))
    #expect(text.contains("1 failure") || text.contains("with 1 failure"))
    // At the test, not in the library's sources.
    #expect(!text.contains("DependencyStorage.swift"))
    #expect(text.contains("XCTestIntegrationTests.swift:\(XCTestDependenciesProbe.strictCallLine)"))
  }
}
