import Dispatch
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
  static let strictCallLine = 25
}

/// Test methods without the helper: each gets a root container of its own.
final class XCTestIsolationProbe: XCTestCase {
  var counterInSetUp: Counter?

  override func setUp() {
    super.setUp()
    counterInSetUp = DependencyValues.current.counter
  }

  func testFirstMethodSeesAFreshCounter() {
    XCTAssertEqual(DependencyValues.current.counter.next(), 1)
    XCTAssertTrue(counterInSetUp === DependencyValues.current.counter, "setUp shares the root")
  }

  func testSecondMethodSeesAFreshCounter() {
    XCTAssertEqual(DependencyValues.current.counter.next(), 1)
  }

  func testThirdMethodSeesAFreshCounterOnAnotherThread() {
    let done = expectation(description: "read on another thread")
    let values = DependencyValues.current
    DispatchQueue.global().async {
      // A thread with nothing bound reads the running method's root, not the process's.
      XCTAssertTrue(DependencyValues.current.counter === values.counter)
      done.fulfill()
    }
    wait(for: [done], timeout: 10)
    XCTAssertEqual(DependencyValues.current.counter.next(), 1)
  }
}

/// Run only by `XCTestIntegrationTests` in a child process: leaks, strict mode.
final class XCTestReportProbe: XCTestCase {
  static let leaked = DispatchSemaphore(value: 0)

  override func setUpWithError() throws {
    try XCTSkipUnless(
      ProcessInfo.processInfo.environment[XCTestDependenciesProbe.probeVariable] == "1",
      "run by XCTestIntegrationTests"
    )
  }

  func test1LeaksAnObject() {
    let store = XCTestLeakyStore()
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
      _ = store.counter.next()
      Self.leaked.signal()
    }
  }

  func test2WaitsForTheLeak() {
    XCTAssertEqual(Self.leaked.wait(timeout: .now() + 10), .success)
  }

  func test3UnusedOverrideFailsInStrictMode() {
    withTestDependencies(strict: true, { $0.greeting = "never read" }) {
      XCTAssertEqual(DependencyValues.current.farewell, "test bye")
    }
  }
}

/// Keeps the scope of the test method that made it.
final class XCTestLeakyStore: @unchecked Sendable {
  @Dependency(\.counter) var counter
}

@Suite("XCTest integration")
struct XCTestIntegrationTests {
  /// Runs XCTest `filter` in a child process with the probes enabled.
  func runXCTest(_ filter: String) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["TinyDependencyTestingTests." + filter]
    var environment = ProcessInfo.processInfo.environment
    environment[XCTestDependenciesProbe.probeVariable] = "1"
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  @Test func strictModeFailsTheXCTestThatReadALiveFallback() throws {
    let (status, text) = try runXCTest(
      "XCTestDependenciesProbe/testStrictModeFailsOnALiveFallback"
    )
    #expect(status != 0)
    #expect(text.contains("LiveOnlyKey has no testValue of its own"))
    #expect(text.contains("1 failure") || text.contains("with 1 failure"))
    // At the test, not in the library's sources.
    #expect(!text.contains("DependencyStorage.swift"))
    #expect(text.contains("XCTestIntegrationTests.swift:\(XCTestDependenciesProbe.strictCallLine)"))
  }

  @Test func eachTestMethodGetsItsOwnRootWithoutTheHelper() throws {
    let (status, text) = try runXCTest("XCTestIsolationProbe")
    #expect(status == 0, "\(text)")
    #expect(text.contains("Executed 3 tests, with 0 failures"))
  }

  @Test func aReadAfterTheMethodEndedIsReportedWithItsName() throws {
    let (_, text) = try runXCTest("XCTestReportProbe")
    #expect(
      text.contains(
        "CounterKey was read through the dependencies of test XCTestReportProbe.test1LeaksAnObject"
      ),
      "\(text)"
    )
  }

  @Test func anUnusedOverrideFailsAStrictXCTest() throws {
    let (status, text) = try runXCTest("XCTestReportProbe/test3UnusedOverrideFailsInStrictMode")
    #expect(status != 0)
    #expect(text.contains("overrode GreetingKey but nothing read it"), "\(text)")
  }
}
