// The compiled copy of the validation suite in Examples.md (section 10); DocumentationTests
// checks that the two match.

import Testing
import TinyDependency
import TinyDependencyCollections
import TinyDependencyTesting
import TinyDependencyValidation

@testable import TinyDependencyExample

@Suite("Every key of the example app is ready for tests")
struct ExampleAppKeyTests {
  @Test func listedKeys() {
    DependencyValidator.check(
      [
        WallClockKey.self, IDGeneratorKey.self, LoggerKey.self, TodoStoreKey.self,
        SignedInUserKey.self, DraftsKey.self, TodoExportersKey.self,
      ],
      configure: { $0.register(AppModule.self) }  // as the app's entry point does
    )
  }

  @Test func everyKeyOfTheAppModule() throws {
    let keys = try #require(DependencyValidator.discoveredKeys())
    let appKeys = keys.filter { _typeName($0).hasPrefix("TinyDependencyExample.") }
    #expect(appKeys.count == 9)
    // Every member found is checked: one that no registered module contributes is reported.
    let report = DependencyValidator.validate(appKeys) { $0.register(AppModule.self) }
    #expect(report.isComplete, "\(report)")
  }
}

// Not in Examples.md: what the check says of the app's keys when no module was registered.
extension ExampleAppKeyTests {
  @Test func withoutTheAppsModulesTheExportersAreEmpty() throws {
    let keys = try #require(DependencyValidator.discoveredKeys())
    let appKeys = keys.filter { _typeName($0).hasPrefix("TinyDependencyExample.") }
    let report = DependencyValidator.validate(appKeys)
    #expect(
      report.findings.map { "\($0.kind): \($0.key)" } == [
        "uncontributed member: MarkdownExporterKey",
        "uncontributed member: PlainTextExporterKey",
        "empty collection: TodoExportersKey",
      ]
    )
  }
}
