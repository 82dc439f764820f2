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
/// code outside a trait when a test ends. The first read of a case identifies it by its test's
/// ID and, for a parameterized test, by reflection on the case (about 50 µs); later reads find
/// it by the test's source location and the bytes of the case value (about 1 µs). Under XCTest an observer makes a root when a test
/// method starts and ends it when the method finishes.
enum TestRootRegistry {
  /// A Swift Testing test case: its test, and for a parameterized test, which case.
  struct CaseKey: Hashable {
    let test: Test.ID
    let testCase: String?
  }

  /// A cheap key for a test case: the test's source location and, for a parameterized test, the
  /// bytes of its `Test.Case` value. Those bytes hold references to the case's arguments; the
  /// entry keeps a copy of the case, so no other case can reuse that memory and match.
  struct FastKey: Hashable {
    let fileID: String
    let line: Int
    let column: Int
    let caseBytes: CaseBytes

    init?(_ test: Test, _ testCase: Test.Case?) {
      let location = test.sourceLocation
      fileID = location.fileID
      line = location.line
      column = location.column
      if let testCase, testCase.isParameterized {
        guard let bytes = CaseBytes(testCase) else { return nil }
        caseBytes = bytes
      } else {
        caseBytes = CaseBytes()
      }
    }
  }

  /// Up to 64 bytes of a value, as words.
  struct CaseBytes: Hashable {
    var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
      (0, 0, 0, 0, 0, 0, 0, 0)

    init() {}

    init?<T>(_ value: T) {
      guard MemoryLayout<T>.size <= MemoryLayout.size(ofValue: words) else { return nil }
      withUnsafeMutableBytes(of: &words) { target in
        withUnsafeBytes(of: value) { target.copyMemory(from: $0) }
      }
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
      withUnsafeBytes(of: lhs.words) { left in
        withUnsafeBytes(of: rhs.words) { right in left.elementsEqual(right) }
      }
    }

    func hash(into hasher: inout Hasher) {
      withUnsafeBytes(of: words) { hasher.combine(bytes: $0) }
    }
  }

  /// A root found by its fast key, with the case it was found for.
  ///
  /// `@unchecked Sendable`: the case is only kept alive, never used.
  struct FastEntry: @unchecked Sendable {
    let values: DependencyValues
    let testCase: Test.Case?
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

  /// What the registry's lock guards.
  private struct State {
    var roots: [CaseKey: DependencyValues] = [:]
    var fastRoots: [FastKey: FastEntry] = [:]
    var xcTest: XCTestRoot?
    var isObserving = false
  }

  private static let state = Locked(State())

  /// The root of the running test, made on its first read; nil outside tests.
  static func currentRoot() -> DependencyValues? {
    if let test = Test.current {
      let testCase = Test.Case.current
      let fast = FastKey(test, testCase)
      if let fast, let hit = state.withLock({ $0.fastRoots[fast] }) { return hit.values }
      let key = CaseKey(test: test.id, testCase: testCase.flatMap(identity(of:)))
      return state.withLock { state in
        let root = state.roots[key] ?? DependencyValues()
        state.roots[key] = root
        if let fast {
          // Bounded: should a case's bytes vary from one read to the next, this only costs time.
          if state.fastRoots.count >= 4_096 { state.fastRoots.removeAll() }
          state.fastRoots[fast] = FastEntry(values: root, testCase: testCase)
        }
        return root
      }
    }
    registerObserverOnTheMainThread()
    return state.withLock { $0.xcTest?.values }
  }

  /// Replaces the running test's root, `old`, with `new`; false when `old` is not its root.
  static func replaceCurrentRoot(_ old: DependencyValues, with new: DependencyValues) -> Bool {
    guard currentRoot()?.isSameContainer(as: old) == true else { return false }
    let test = Test.current
    let testCase = Test.Case.current
    let key = test.map { CaseKey(test: $0.id, testCase: testCase.flatMap(identity(of:))) }
    let fast = test.flatMap { FastKey($0, testCase) }
    return state.withLock { state in
      if let key {
        guard state.roots[key]?.isSameContainer(as: old) == true else { return false }
        state.roots[key] = new
        if let fast { state.fastRoots[fast] = FastEntry(values: new, testCase: testCase) }
        return true
      }
      guard let root = state.xcTest, root.values.isSameContainer(as: old) else { return false }
      state.xcTest = XCTestRoot(testCase: root.testCase, values: new)
      return true
    }
  }

  /// The XCTest test method that is running, if any.
  static var currentTestCase: XCTestCase? {
    if Test.current == nil { registerObserverOnTheMainThread() }
    return state.withLock { $0.xcTest?.testCase }
  }

  /// The XCTest test method that is running, as far as the registry knows.
  enum RunningXCTest {
    /// No XCTest method is known to run.
    case none
    /// The method that was running when the observer was registered, before it learned its name.
    case unnamed
    /// A method the observer saw start.
    case named(XCTestCase)
  }

  /// The XCTest test method that is running.
  static var runningXCTest: RunningXCTest {
    if Test.current == nil { registerObserverOnTheMainThread() }
    guard let root = state.withLock({ $0.xcTest }) else { return .none }
    return root.testCase.map(RunningXCTest.named) ?? .unnamed
  }

  /// Learns the test case of the method that was running when the observer was registered.
  static func learn(_ testCase: XCTestCase) {
    let learned = state.withLock { state -> XCTestRoot? in
      guard let root = state.xcTest, root.testCase == nil else { return nil }
      state.xcTest = XCTestRoot(testCase: testCase, values: root.values)
      return root
    }
    learned?.values.testScope?.name = testCase.name
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

  /// Registers the observer once, the first time the registry is asked on the main thread
  /// outside Swift Testing, that is from inside an XCTest test method (or its `setUp`): that
  /// method gets a root too, which ends when the observer sees it finish. XCTest starts and
  /// finishes test methods on the main thread.
  private static func registerObserverOnTheMainThread() {
    guard Thread.isMainThread else { return }
    let register = state.withLock { state in
      defer { state.isObserving = true }
      return !state.isObserving
    }
    guard register else { return }
    start(nil)
    // On the main thread, so on the main actor. `MainActor.assumeIsolated` needs macOS 14 and
    // checks the executor, which a synchronous XCTest method does not run on: call the
    // main-actor closure as a plain one instead.
    let addObserver: @MainActor () -> Void = {
      XCTestObservationCenter.shared.addTestObserver(RootObserver())
    }
    unsafeBitCast(addObserver, to: (() -> Void).self)()
  }

  static func start(_ testCase: XCTestCase?) {
    let scope = TestScope(name: testCase?.name ?? "(the running XCTest)", strict: false)
    let root = XCTestRoot(
      testCase: testCase,
      values: DependencyValues(context: nil, testScope: scope)
    )
    state.withLock { $0.xcTest = root }
  }

  static func finish(_ testCase: XCTestCase) {
    let root = state.withLock { state in
      defer { state.xcTest = nil }
      return state.xcTest
    }
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

  #if canImport(Darwin)
    func testCase(_ testCase: XCTestCase, didRecord issue: XCTIssue) {
      TestRootRegistry.learn(testCase)
    }
  #else
    func testCase(
      _ testCase: XCTestCase,
      didFailWithDescription description: String,
      inFile filePath: String?,
      atLine lineNumber: Int
    ) {
      TestRootRegistry.learn(testCase)
    }
  #endif
}
