import Foundation
import TinyDependency
import TinyDependencyBuiltins
import XCTest

// The XCTest form of swift-dependencies' "Overriding dependencies" article: every test method of
// the class runs inside the overrides.
final class InvokeTestOverrideTests: XCTestCase {
  override func invokeTest() {
    withDependencies {
      $0.date.now = Date(timeIntervalSince1970: 1234567890)
    } operation: {
      super.invokeTest()
    }
  }

  func testEveryMethodSeesTheOverriddenDate() {
    @Dependency(\.date.now) var now
    XCTAssertEqual(now, Date(timeIntervalSince1970: 1234567890))
  }
}
