// The compiled copy of the test in section 18 of Examples.md (the section's other blocks are the
// example app's own code); DocumentationTests checks that the two match.

import Testing
import TinyDependency
import TinyDependencyCollections
import TinyDependencyTesting

@testable import TinyDependencyExample

@Suite("The example app's plugins: a test registers the module it needs")
struct ExamplePluginTests {
  @Test(.dependencies { $0.register(MarkdownExportModule.self) })
  func aTestRegistersOnlyTheModuleItNeeds() {
    let exporters = DependencyValues.current[TodoExportersKey.self]
    #expect(exporters.map(\.format) == ["markdown"])
  }
}
