import Foundation
import TinyDependency
import TinyDependencyBuiltins
import XCTest

// The XCTest form of swift-dependencies 1.16's "Testing" article, block 7: overrides in a scope
// inside a test method.
final class AuditTestingArticleXCTests: XCTestCase {
  func testBasics() {
    withDependencies {
      $0.uuid = .incrementing
    } operation: {
      let model = TicketModel()
      model.addButtonTapped()
      XCTAssertEqual(model.tickets, [UUID(0)])
    }
  }
}
