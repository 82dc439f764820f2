import Foundation
import Testing
import TinyDependency
import XCTest

/// Routes the core's issues to the test that is running: `Issue.record` under Swift Testing,
/// a failure of the current `XCTestCase` under XCTest. It also gives the core each test's root
/// container (see ``TestRootRegistry``).
///
/// The core looks this type up by its mangled name, `21TinyDependencyTesting11IssueRouterO`:
/// keep the name and module.
enum IssueRouter: DependencyIssueRouting, DependencyRootProviding {
  static func record(_ message: String, at site: SourceSite?) -> Bool {
    // A report made inside the library, with no site of the user's (strict mode, a leak, a
    // built-in's placeholder that cannot name its caller), points at the test instead.
    if let test = Test.current {
      let location = site.map {
        SourceLocation(fileID: $0.fileID, filePath: $0.filePath, line: $0.line, column: $0.column)
      }
      Issue.record(Comment(rawValue: message), sourceLocation: location ?? test.sourceLocation)
      return true
    }
    if let scope = XCTestScopes.current {
      // At the innermost `withTestDependencies` call.
      scope.testCase.recordDependencyFailure(
        message,
        filePath: site?.filePath ?? scope.filePath,
        line: site?.line ?? scope.line
      )
      return true
    }
    switch TestRootRegistry.runningXCTest {
    case .named(let testCase):
      // XCTest gives no test's location: a report with no site is placed here.
      let (filePath, line) = site.map { ($0.filePath, $0.line) } ?? (#filePath, #line)
      testCase.recordDependencyFailure(message, filePath: filePath, line: line)
      return true
    case .unnamed:
      // The method that was running when the registry started observing XCTest: XCTest
      // names it to no one, so it fails through XCTest's own current test, with the site in
      // the message.
      XCTFail(site.map { "\(message) (at \($0))" } ?? message)
      // XCTest drops a failure outside any test. The observer, told of the failure at once,
      // learned the method's name if it landed; otherwise standard error takes it.
      if case .named = TestRootRegistry.runningXCTest { return true }
      return false
    case .none:
      return false
    }
  }

  static func reportLiveFallback(
    of key: any DependencyKey.Type,
    readers: [any DependencyKey.Type]
  ) {
    // A built-in's placeholder reports each use itself.
    if key is any _ReportsItsOwnUses.Type { return }
    let name = KeyType(key).name
    let chain = readers.map { KeyType($0).name }.joined(separator: " -> ")
    let whereRead = readers.isEmpty ? "read directly in the test" : "read while building \(chain)"
    let message =
      "\(name) has no testValue of its own, so a test used its live defaultValue "
      + "(\(whereRead)). Declare `static var testValue` on \(name), or override it for the test "
      + "with `.dependency(…)` or `withDependencies`."
    if let scope = TestScope.deferringFallbacks.get() {
      scope.deferFallback(keys: ([key] + readers).map { ObjectIdentifier($0) }, message: message)
    } else {
      IssueReporter.report(message)
    }
  }

  static func replaceCurrentRoot(_ old: DependencyValues, with new: DependencyValues) -> Bool {
    TestRootRegistry.replaceCurrentRoot(old, with: new)
  }

  static func currentRoot() -> DependencyValues? {
    TestRootRegistry.currentRoot()
  }

  static func currentRootName() -> String? {
    if let test = Test.current { return test.name }
    if let scope = XCTestScopes.current { return scope.testCase.name }
    switch TestRootRegistry.runningXCTest {
    case .named(let testCase): return testCase.name
    case .unnamed: return TestRootRegistry.currentRoot()?.testScope?.name
    case .none: return nil
    }
  }

  static func reportLateRead(_ message: String, strict: Bool) -> Bool {
    if let test = Test.current {
      // The test of a leaked task is the one that leaked it: Swift Testing reports the issue
      // there, after the test's own result. Issue severities came with Swift 6.3 (Xcode 26.4).
      #if compiler(>=6.3)
        Issue.record(
          Comment(rawValue: message),
          severity: strict ? .error : .warning,
          sourceLocation: test.sourceLocation
        )
        return true
      #else
        guard strict else { return false }
        Issue.record(Comment(rawValue: message), sourceLocation: test.sourceLocation)
        return true
      #endif
    }
    // XCTest has no warnings, and records failures safely only on the thread that runs tests.
    if strict, Thread.isMainThread,
      let testCase = XCTestScopes.current?.testCase ?? TestRootRegistry.currentTestCase
    {
      testCase.recordDependencyFailure(message, filePath: #filePath, line: #line)
      return true
    }
    return false
  }
}
