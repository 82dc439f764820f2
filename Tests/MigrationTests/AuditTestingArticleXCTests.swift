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

// "Overriding dependencies", block 6: a base class overrides for every test case that inherits
// from it.
class AuditBaseTestCase: XCTestCase {
  override func invokeTest() {
    withDependencies {
      // Overrides here apply to every subclass's tests.
      $0.uuid = .incrementing
    } operation: {
      super.invokeTest()
    }
  }
}

final class AuditInheritedOverrideTests: AuditBaseTestCase {
  func testTheBaseClassesOverrideApplies() {
    @Dependency(\.uuid) var uuid
    XCTAssertEqual(uuid(), UUID(0))
  }
}
