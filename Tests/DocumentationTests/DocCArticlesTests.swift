import Foundation
import Testing
import TinyDependency
import TinyDependencyGraph

@Suite("The DocC articles show code that compiles and works")
struct DocCArticlesTests {
  /// The documentation catalogs, relative to the package root.
  static let catalogs = [
    "Sources/TinyDependency/TinyDependency.docc",
    "Sources/TinyDependencyGraph/TinyDependencyGraph.docc",
    "Sources/TinyDependencyTesting/TinyDependencyTesting.docc",
    "Sources/TinyDependencyValidation/TinyDependencyValidation.docc",
    "Sources/TinyDependencyBuiltins/TinyDependencyBuiltins.docc",
    "Sources/TinyDependencyLifecycle/TinyDependencyLifecycle.docc",
    "Sources/TinyDependencyCollections/TinyDependencyCollections.docc",
    "Sources/TinyDependencyFactories/TinyDependencyFactories.docc",
    "Sources/TinyDependencySwiftUI/TinyDependencySwiftUI.docc",
  ]

  /// The compiled copies of the catalogs' code blocks, one file per article or two.
  static let docCExamples = [
    "DocCExamples+Essentials.swift",
    "DocCExamples+Scoping.swift",
    "DocCExamples+Servers.swift",
    "DocCExamples+Testing.swift",
    "DocCExamples+Migrating.swift",
    "DocCExamples+SwiftDependencies.swift",
    "DocCExamples+Face.swift",
    "DocCExamples+TinyDependencyTesting.swift",
    "DocCExamples+TinyDependencyValidation.swift",
    "DocCExamples+TinyDependencyBuiltins.swift",
    "DocCExamples+Collections.swift",
    "GuideExamples+Factories.swift",
    "GuideExamples+Sessions.swift",
    // Reference material that README.md showed before it became a front door.
    "ReadmeExamples.swift",
    // The SwiftUI product's, compiled in its own test target (against the stand-in on Linux).
    DocumentationTests.swiftUIExamples,
  ]

  /// The Markdown files of a catalog, relative to the package root, sorted.
  static func markdownFiles(in catalog: String) throws -> [String] {
    let root = DocumentationTests.packageRoot.appendingPathComponent(catalog)
    let paths = try FileManager.default.subpathsOfDirectory(atPath: root.path)
    return paths.filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
  }

  static func article(_ name: String, catalog: String = catalogs[0]) throws -> String {
    try String(
      contentsOf: DocumentationTests.packageRoot.appendingPathComponent("\(catalog)/\(name)"),
      encoding: .utf8
    )
  }

  // MARK: - Compiled copies

  @Test(arguments: catalogs)
  func everyCodeBlockIsCompiled(catalog: String) throws {
    let files = try Self.markdownFiles(in: catalog)
    #expect(!files.isEmpty, "\(catalog) should have a landing page")
    let compiled = Self.docCExamples + [DocumentationTests.mainActorApp]
    let source = try DocumentationTests.compiledLines(compiled)
    var blockCount = 0
    for file in files {
      let blocks = try DocumentationTests.codeBlocks(in: file)
      blockCount += blocks.count
      for block in blocks
      where !DocumentationTests.contains(source, DocumentationTests.normalized(block.lines)) {
        Issue.record("\(block) is not in any of Tests/DocumentationTests/\(compiled) line for line")
      }
    }
    #expect(blockCount >= 1, "\(catalog) should show its examples in ```swift blocks")
  }

  // MARK: - The examples do what the articles say

  @Test func unimplementedEndpointsReportTheirCalls() async {
    let client = UserClient.testValue
    withKnownIssue {
      #expect(client.count() == 0)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("Unimplemented: UserClient.count") }
    }
    await withKnownIssue {
      await #expect(throws: UnimplementedError(endpoint: "UserClient.fetchUser")) {
        try await client.fetchUser(1)
      }
    }
  }

  @Test func overridesReplaceTheTestValue() {
    #expect(WelcomeFlow().welcome("ada@example.com"))
    #expect(!welcomeWithFailingMail())
  }

  @Test func eachContextUsesItsOwnValue() {
    #expect(greetingsForEachContext() == ["Hello, Ada!", "test: hello, Ada", "preview: hi, Ada"])
    #expect(previewGreeting() == "preview: hi, Ada")
  }

  @Test func aComputedDefaultIsBuiltOncePerContainer() {
    #expect(cartsPerContainer() == [true, false])
  }

  @Test func aTransientKeyIsBuiltOnEveryRead() {
    let values = DependencyValues(context: .default)
    let numbers = Set((0..<20).map { _ in values[TicketNumberKey.self] })
    #expect(numbers.count > 1)
  }

  @Test func anInputKeyUsesItsTestValueInTests() {
    let values = DependencyValues(context: .test)
    #expect(values[ServiceURLKey.self] == "https://service.test.invalid")
    #expect(values.unsetInputs(among: [ServiceURLKey.self]).count == 1)
  }

  @Test func scopesNestAndChildTasksInherit() async {
    #expect(nestedScopes() == ["inner: B", "outer: A"])
    #expect(await childTaskGreeting() == "scoped: child")
  }

  @Test func objectsKeepTheScopeTheyWereMadeIn() {
    #expect(bannerCapture() == ["made in scope: A", "newer: B"])
  }

  @Test func detachedTasksSeeTheRootUnlessTheScopeIsEscaped() async {
    let greetings = await detachedGreetings()
    #expect(greetings == ["test: hello, detached", "scoped: escaped"])
  }

  @Test func serversFillAContainerPerRequest() async {
    #expect(
      renderInvoice(tenant: "acme", cents: 250) == "acme: Hello, customer! You owe 250 cents."
    )
    #expect(renderInvoice(tenant: nil, cents: 250) == nil)
    #expect(
      await serveInvoice(tenant: "zeta", cents: 5) == "zeta: Hello, customer! You owe 5 cents."
    )
  }

  @Test func requestContainersShareWhatReadsNoRequestValue() {
    #expect(poolsOfTwoRequests())
  }

  @Test func graphsAreWhatTheArticleShows() throws {
    let article = try Self.article("Reading-the-dependency-graph.md", catalog: Self.catalogs[1])
    #expect(article.contains("```text\n" + invoiceGraph().text + "```"))
    #expect(article.contains("```text\n" + invoiceGraphWithoutTenant().text + "```"))
    #expect(article.contains("```mermaid\n" + invoiceGraph().mermaid + "```"))
    #expect(builtSoFar() == invoiceGraph())
  }

  @Test func migratedCodeBehavesAsBefore() async throws {
    #expect(themedButtons() == ["gray", "black"])
    #expect(try await NumberFactModel().fact(about: 7) == "7 is a test number.")
    #expect(NumberFactModel().context == .test)
    #expect(try await overriddenFact() == "42 is overridden.")
  }
}
