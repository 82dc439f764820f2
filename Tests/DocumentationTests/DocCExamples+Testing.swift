// Compiled copies of the code blocks in Testing-with-dependencies.md. DocCArticlesTests checks
// that every ```swift block of the catalogs appears in a DocCExamples+ file line for line; edit
// both together.

import Testing
import TinyDependency
import TinyDependencyTesting
import TinyDependencyValidation
import XCTest

// MARK: - Testing with dependencies

@Suite(.dependency(\.greeter, Greeter { "suite: \($0)" }))
struct WelcomeBannerTests {
  @Test func usesTheSuiteGreeter() {
    #expect(WelcomeBanner().text(for: "Ada") == "suite: Ada")
  }

  @Test(.dependencies { $0.greeter = Greeter { "test: \($0)" } })
  func testTraitNestsInsideTheSuiteTrait() {
    #expect(WelcomeBanner().text(for: "Ada") == "test: Ada")
  }
}

@Test(.strictDependencies)
func welcomeReadsOnlyTestValues() {
  #expect(WelcomeFlow().welcome("ada@example.com"))
}

@Test func articleKeysAreReadyForTests() {
  DependencyValidator.check([MailerKey.self, GreeterKey.self, InvoiceRendererKey.self]) {
    $0[TenantKey.self] = "acme"
  }
}

final class WelcomeFlowXCTests: XCTestCase {
  override func invokeTest() {
    withTestDependencies(strict: true) { super.invokeTest() }
  }

  func testWelcomeSendsMail() {
    XCTAssertTrue(WelcomeFlow().welcome("ada@example.com"))
  }
}
