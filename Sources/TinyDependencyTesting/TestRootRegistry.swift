import Foundation
import Testing
import TinyDependency
import XCTest

/// The root containers of tests that run without a trait or helper: one per Swift Testing test
/// case, one per XCTest test method.
///
/// A read with nothing bound asks for ``currentRoot()`` (through ``IssueRouter``). Under Swift
/// Testing the test case is found with `Test.current` and `Test.Case.current`; its root is made
/// on its first read and kept until the process exits, because Swift Testing tells nothing to
/// code outside a trait when a test ends. Under XCTest an observer makes a root when a test
/// method starts and ends it when the method finishes.
enum TestRootRegistry {
  /// A Swift Testing test case: its test, and for a parameterized test, which case.
  struct CaseKey: Hashable {
    let test: Test.ID
    let testCase: String?
  }

  /// The running XCTest test method and its root.
  ///
  /// `@unchecked Sendable`: XCTest starts and finishes test methods on one thread; the test case
  /// is only used to record failures while it runs.
  struct XCTestRoot: @unchecked Sendable {
    /// The test method; nil for the one that was running when the observer was registered.
    let testCase: XCTestCase?
    let values: DependencyValues
  }

  /// `nonisolated(unsafe)`: guarded by `lock`.
  nonisolated(unsafe) private static var roots: [CaseKey: DependencyValues] = [:]
  /// `nonisolated(unsafe)`: guarded by `lock`.
  nonisolated(unsafe) private static var xcTest: XCTestRoot?
  private static let lock = NSLock()

  /// The root of the running test, made on its first read; nil outside tests.
  static func currentRoot() -> DependencyValues? {
    if let test = Test.current {
      let key = CaseKey(test: test.id, testCase: Test.Case.current.flatMap(identity(of:)))
      lock.lock()
      defer { lock.unlock() }
      if let root = roots[key] { return root }
      let root = DependencyValues()
      roots[key] = root
      return root
    }
    registerObserverOnTheMainThread()
    lock.lock()
    defer { lock.unlock() }
    return xcTest?.values
  }

  /// The XCTest test method that is running, if any.
  static var currentTestCase: XCTestCase? {
    if Test.current == nil { registerObserverOnTheMainThread() }
    lock.lock()
    defer { lock.unlock() }
    return xcTest?.testCase
  }

  /// Tells a parameterized test's cases apart. Their IDs are not public API: the discriminator
  /// and argument IDs are read by reflection, or, should their shape change, the whole case's
  /// description.
  private static func identity(of testCase: Test.Case) -> String? {
    guard testCase.isParameterized else { return nil }
    let payload = Mirror(reflecting: testCase).descendant("_kind", "parameterized")
    if let payload,
      let discriminator = Mirror(reflecting: payload).descendant("discriminator") as? Int,
      let arguments = Mirror(reflecting: payload).descendant("arguments") as? [Any]
    {
      var identity = "\(discriminator)"
      for argument in arguments {
        guard let bytes = Mirror(reflecting: argument).descendant("id", "bytes") as? [UInt8]
        else { return String(reflecting: testCase) }
        identity += ";" + bytes.map(String.init).joined(separator: ",")
      }
      return identity
    }
    return String(reflecting: testCase)
  }

  // MARK: - XCTest

  /// `nonisolated(unsafe)`: guarded by `lock`.
  nonisolated(unsafe) private static var isObserving = false

  /// Registers the observer once, the first time the registry is asked on the main thread
  /// outside Swift Testing, that is from inside an XCTest test method (or its `setUp`): that
  /// method gets a root too, which ends when the observer sees it finish. XCTest starts and
  /// finishes test methods on the main thread.
  private static func registerObserverOnTheMainThread() {
    guard Thread.isMainThread else { return }
    lock.lock()
    let register = !isObserving
    isObserving = true
    lock.unlock()
    guard register else { return }
    start(nil)
    MainActor.assumeIsolated {
      XCTestObservationCenter.shared.addTestObserver(RootObserver())
    }
  }

  static func start(_ testCase: XCTestCase?) {
    let scope = TestScope(name: testCase?.name ?? "(the running XCTest)", strict: false)
    let root = XCTestRoot(
      testCase: testCase,
      values: DependencyValues(context: nil, testScope: scope)
    )
    lock.lock()
    xcTest = root
    lock.unlock()
  }

  static func finish(_ testCase: XCTestCase) {
    lock.lock()
    let root = xcTest
    xcTest = nil
    lock.unlock()
    guard let scope = root?.values.testScope else { return }
    if root?.testCase == nil { scope.name = testCase.name }
    scope.end()
  }
}

/// Gives each XCTest test method its own root, from `testCaseWillStart` (before `setUp`) to
/// `testCaseDidFinish` (after `tearDown`).
final class RootObserver: NSObject, XCTestObservation, Sendable {
  func testCaseWillStart(_ testCase: XCTestCase) {
    TestRootRegistry.start(testCase)
  }

  func testCaseDidFinish(_ testCase: XCTestCase) {
    TestRootRegistry.finish(testCase)
  }
}
