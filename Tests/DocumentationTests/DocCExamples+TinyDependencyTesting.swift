// Compiled copies of the code blocks in the TinyDependencyTesting catalog. DocCArticlesTests
// checks that every ```swift block of the catalogs appears in a DocCExamples+ file line for line;
// edit both together.

import Testing
import TinyDependency
import TinyDependencyTesting
import TinyDependencyValidation

// MARK: - TinyDependencyTesting

@Suite(.dependencies)
struct InvoiceTests {
  @Test(.dependency(\.greeter, Greeter { "Dear \($0)," }))
  func rendersWithTheTenant() {
    let invoice = withDependencies {
      $0[TenantKey.self] = "acme"
    } operation: {
      DependencyValues.current.invoiceRenderer.render(cents: 250)
    }
    #expect(invoice == "acme: Dear customer, You owe 250 cents.")
  }

  @Test func invoiceKeysHaveTestValues() {
    let report = DependencyValidator.validate([InvoiceRendererKey.self]) {
      $0[TenantKey.self] = "acme"
    }
    #expect(report.isComplete, "\(report)")
  }
}
