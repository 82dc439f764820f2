import Testing
import TinyDependency
import XCTest

/// Routes the core's issues to the test that is running: `Issue.record` under Swift Testing,
/// a failure of the current `XCTestCase` under XCTest.
///
/// The core looks this type up by its mangled name, `21TinyDependencyTesting11IssueRouterO`:
/// keep the name and module.
enum IssueRouter: _DependencyIssueRouting {
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
    if let testCase = XCTestScopes.current?.testCase {
      testCase.recordDependencyFailure(message, filePath: filePath, line: line)
      return true
    }
    return false
  }
}
