// The compiled copy of the validation suite in Examples.md (section 10); DocumentationTests
// checks that the two match.

import Testing
import TinyDependency
import TinyDependencyTesting
import TinyDependencyValidation

@testable import TinyDependencyExample

@Suite("Every key of the example app is ready for tests")
struct ExampleAppKeyTests {
  @Test func listedKeys() {
    DependencyValidator.check([
      WallClockKey.self, IDGeneratorKey.self, LoggerKey.self, TodoStoreKey.self,
      SignedInUserKey.self, DraftsKey.self,
    ])
  }

  @Test func everyKeyOfTheAppModule() throws {
    let keys = try #require(DependencyValidator.discoveredKeys())
    let appKeys = keys.filter { _typeName($0).hasPrefix("TinyDependencyExample.") }
    #expect(appKeys.count == 6)
    let report = DependencyValidator.validate(appKeys)
    #expect(report.isComplete, "\(report)")
  }
}
