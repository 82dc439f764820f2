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
enum IssueRouter: DependencyIssueRouting, DependencyTestRootProviding {
  static func record(
    _ message: String,
    fileID: String,
    filePath: String,
    line: Int,
    column: Int
  ) -> Bool {
    if let test = Test.current {
      // A report made inside the library (strict mode, a built-in's placeholder) points at the
      // test instead.
      let location =
        fileID.hasPrefix("TinyDependency/") || fileID.hasPrefix("TinyDependencyBuiltins/")
        ? test.sourceLocation
        : SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
      Issue.record(Comment(rawValue: message), sourceLocation: location)
      return true
    }
    if let scope = XCTestScopes.current {
      // A report made inside the library (strict mode) points at the test's call instead.
      let inLibrary = fileID.hasPrefix("TinyDependency/")
      scope.testCase.recordDependencyFailure(
        message,
        filePath: inLibrary ? scope.filePath : filePath,
        line: inLibrary ? scope.line : line
      )
      return true
    }
    if let testCase = TestRootRegistry.currentTestCase {
      testCase.recordDependencyFailure(message, filePath: filePath, line: line)
      return true
    }
    return false
  }

  static func currentTestRoot() -> DependencyValues? {
    TestRootRegistry.currentRoot()
  }

  static func currentTestName() -> String? {
    if let test = Test.current { return test.name }
    return (XCTestScopes.current?.testCase ?? TestRootRegistry.currentTestCase)?.name
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
