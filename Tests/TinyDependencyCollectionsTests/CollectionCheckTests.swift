import Foundation
import Testing
import TinyDependency
import TinyDependencyCollections
import TinyDependencyGraph
import TinyDependencyTesting
import TinyDependencyValidation

@Suite("The checks find an empty collection, a duplicate map key and a forgotten contribution")
struct CollectionCheckTests {
  @Test func anEmptyCollectionIsAFindingNotAStop() {
    let report = DependencyCheck.validate([ForgottenKey.self])
    let finding = report.findings.first { $0.kind == .emptyCollection }
    #expect(finding?.key == "ForgottenKey", "\(report)")
    #expect(finding?.message.contains("contribute") == true)
    #expect(finding?.fix.contains("allowsEmpty") == true)
  }

  @Test func aCollectionThatAllowsEmptyIsNoFinding() {
    let report = DependencyCheck.validate([OptionalPluginsKey.self])
    #expect(report.findings.isEmpty, "\(report)")
  }

  @Test func aCollectionWithMembersIsNoFinding() {
    let report = DependencyCheck.validate([PluginsKey.self, HandlersKey.self]) {
      $0.register(AppModule.self)
    }
    #expect(report.findings.isEmpty, "\(report)")
  }

  @Test func aDuplicateMapKeyNamesBothMembers() {
    let report = DependencyValidator.validate([HandlersKey.self]) {
      $0.contribute(SearchHandlerKey.self)
      $0.contribute(OtherSearchHandlerKey.self)
    }
    let findings = report.findings.filter { $0.kind == .duplicateMapKey }
    #expect(findings.count == 1, "\(report)")
    #expect(findings.first?.key == "HandlersKey")
    #expect(findings.first?.path == ["HandlersKey", "SearchHandlerKey", "OtherSearchHandlerKey"])
    #expect(findings.first?.message.contains("\"search\"") == true)
  }

  @Test func aMemberNoModuleContributesIsAFinding() {
    let report = DependencyCheck.validate(
      [PluginsKey.self, SearchPluginKey.self, SharePluginKey.self]
    ) { $0.register(SearchModule.self) }
    let findings = report.findings.filter { $0.kind == .uncontributedMember }
    #expect(findings.map(\.key) == ["SharePluginKey"], "\(report)")
    #expect(findings.first?.path == ["PluginsKey", "SharePluginKey"])
    #expect(findings.first?.fix.contains("contribute(SharePluginKey.self)") == true)
  }

  @Test func aMemberOfACollectionNothingReadIsStillChecked() {
    let report = DependencyCheck.validate([SharePluginKey.self]) {
      $0.register(SearchModule.self)
    }
    #expect(report.findings.map(\.kind) == [.uncontributedMember], "\(report)")
  }

  @Test func theJSONNamesModulesAndEachMembersCollection() {
    var values = DependencyValues(context: .test)
    values.register(AppModule.self)
    _ = values.plugins
    let json = DependencyCheck.json(of: values.graph)
    #expect(json.hasPrefix("{\n  \"schemaVersion\": 1,\n"))
    #expect(json.contains("  \"modules\": [\"AppModule\", \"SearchModule\", \"ShareModule\"],\n"))
    #expect(
      json.contains(
        "{\"key\": \"SearchPluginKey\", \"valueType\": \"Plugin\", \"lifetime\": \"shared\", "
          + "\"ownValues\": [], \"collection\": \"member of PluginsKey\", \"module\": \"SearchModule\"}"
      ),
      "\(json)"
    )
    #expect(json.contains("{\"key\": \"PluginsKey\", \"valueType\": \"Array<Plugin>\""), "\(json)")
  }

  @MainActor
  @Test func aCheckAgainstAFileReportsAModuleThatMoved() throws {
    let configure: @Sendable (inout DependencyValues) -> Void = { $0.register(AppModule.self) }
    let written = DependencyCheck.run(
      ["--format", "json"],
      keys: [PluginsKey.self],
      configure: configure
    )
    #expect(written.exitCode == 0, "\(written.errors)")
    let path = NSTemporaryDirectory() + "collections-graph-\(UUID().uuidString).json"
    defer { try? FileManager.default.removeItem(atPath: path) }
    try written.output.write(toFile: path, atomically: true, encoding: .utf8)
    let same = DependencyCheck.run(
      ["--check", path],
      keys: [PluginsKey.self],
      configure: configure
    )
    #expect(same.exitCode == 0, "\(same.output)")
    let fewer = DependencyCheck.run(["--check", path], keys: [PluginsKey.self]) {
      $0.register(SearchModule.self)
      $0.contribute(SharePluginKey.self)
    }
    #expect(fewer.exitCode == 3)
    #expect(fewer.output.contains("- module AppModule\n"), "\(fewer.output)")
    #expect(fewer.output.contains("- module ShareModule\n"), "\(fewer.output)")
    #expect(fewer.output.contains("~ key SharePluginKey"), "\(fewer.output)")
  }
}
