import Foundation
import Testing
import TinyDependency
import TinyDependencyGraph

@Suite("README.md and Examples.md show code that compiles and works")
struct DocumentationTests {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// A fenced ```swift block of a Markdown file.
  struct CodeBlock: CustomStringConvertible {
    var file: String
    var line: Int
    var lines: [String]
    var description: String { "\(file):\(line)" }
  }

  /// The ```swift blocks of a Markdown file, except those preceded by `<!-- not compiled -->`.
  static func codeBlocks(in file: String) throws -> [CodeBlock] {
    let text = try String(
      contentsOf: packageRoot.appendingPathComponent(file),
      encoding: .utf8
    )
    var blocks: [CodeBlock] = []
    var current: CodeBlock?
    var skipNext = false
    for (index, line) in text.components(separatedBy: "\n").enumerated() {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if var block = current {
        if trimmed == "```" {
          blocks.append(block)
          current = nil
        } else {
          block.lines.append(line)
          current = block
        }
      } else if trimmed == "```swift" {
        if !skipNext { current = CodeBlock(file: file, line: index + 1, lines: []) }
        skipNext = false
      } else if trimmed.hasPrefix("<!-- not compiled") {
        skipNext = true
      } else if !trimmed.isEmpty {
        skipNext = false
      }
    }
    return blocks
  }

  /// Lines without indentation, blank lines, imports (the formatter moves imports up) and
  /// `@available` lines: the compiled copies need them for the package's minimums (macOS 12,
  /// iOS 15), below those of clocks; the documents show code for apps that target newer systems.
  static func normalized(_ lines: [String]) -> [String] {
    lines.map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty && !$0.hasPrefix("import ") && !$0.hasPrefix("@available(") }
  }

  /// The normalized lines of files in Tests/DocumentationTests, each file's followed by a blank.
  static func compiledLines(_ files: [String]) throws -> [String] {
    var lines: [String] = []
    for name in files {
      let url = packageRoot.appendingPathComponent("Tests/DocumentationTests/\(name)")
      lines += normalized(
        try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
      )
      lines.append("")  // no block spans two files
    }
    return lines
  }

  static func contains(_ haystack: [String], _ needle: [String]) -> Bool {
    guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
    return (0...(haystack.count - needle.count)).contains {
      Array(haystack[$0..<($0 + needle.count)]) == needle
    }
  }

  // MARK: - Compiled copies

  /// The app-shaped blocks are compiled by Tests/Fixtures/MainActorApp, whose target defaults
  /// to main-actor isolation (built by DefaultMainActorIsolationTests).
  static let mainActorApp = "../Fixtures/MainActorApp/Sources/App/App.swift"

  /// The SwiftUI examples, compiled by the SwiftUI product's test target.
  static let swiftUIExamples = "../TinyDependencySwiftUITests/DocumentationExamples.swift"

  /// The compiled copies of Examples.md's blocks, in the order of its sections.
  static let guideExamples = [
    "GuideExamples+Services.swift",
    "GuideExamples+Containers.swift",
    "ExampleAppValidation.swift",
    "GuideExamples+Lifecycle.swift",
    mainActorApp,
    "GuideExamples+Builtins.swift",
    "GuideExamples+Factories.swift",
    "GuideExamples+Sessions.swift",
    swiftUIExamples,
    // Section 18 shows the example app's own code, compiled as its target.
    "../../Sources/TinyDependencyExample/Exporters.swift",
    "../../Sources/TinyDependencyExample/MarkdownExport.swift",
    "../../Sources/TinyDependencyExample/ExampleApp.swift",
    "../../Sources/TinyDependencyExampleMain/main.swift",
    "GuideExamples+Plugins.swift",
  ]

  @Test(arguments: [
    ("README.md", ["ReadmeExamples.swift", mainActorApp]),
    ("Examples.md", guideExamples),
  ])
  func everyCodeBlockIsCompiled(markdown: String, compiled: [String]) throws {
    let blocks = try Self.codeBlocks(in: markdown)
    #expect(blocks.count >= 3, "\(markdown) should show its examples in ```swift blocks")
    let source = try Self.compiledLines(compiled)
    for block in blocks where !Self.contains(source, Self.normalized(block.lines)) {
      Issue.record("\(block) is not in any of Tests/DocumentationTests/\(compiled) line for line")
    }
  }

  // MARK: - The examples do what the documents say

  @Test func profileServiceFetchesAndSaves() async throws {
    let user = try await profileOverrides()
    #expect(user == User(id: 7, name: "Ada"))
  }

  @Test func profileServiceReadsTheDatabaseFirst() async throws {
    let log = RecordingLogger()
    let user = try await withDependencies {
      $0.database = InMemoryDatabase([User(id: 3, name: "Cached")])
      $0.auditLog = log
    } operation: {
      try await ProfileService().profile(id: 3)
    }
    #expect(user.name == "Cached")
    #expect(log.messages.isEmpty)
  }

  @Test func eachRequestSeesItsOwnContainer() async {
    async let first = serve(requestID: "r-1", name: "Ada")
    async let second = serve(requestID: "r-2", name: "Grace")
    #expect(await [first, second] == ["Hello, Ada!", "Hello, Grace!"])
    #expect(DependencyValues.current.requestID.rawValue == "no-request")
  }

  @Test func requestContainerResolvesWithoutBinding() {
    var request = DependencyValues(context: .default)
    request.requestID = RequestID(rawValue: "r-9")
    #expect(request.requestID.rawValue == "r-9")
    #expect(request.storageDirectory != "/tmp/app-tests")
    #expect(DependencyValues.current.storageDirectory == "/tmp/app-tests")
  }

  @Test func escapedWorkLogsInTheCallersScope() async {
    let log = RecordingLogger()
    await withDependencies {
      $0.auditLog = log
    } operation: {
      await withCheckedContinuation { done in
        reportInBackground("from dispatch") { done.resume() }
      }
      await reportDetached("from a detached task")
    }
    #expect(log.messages == ["from dispatch", "from a detached task"])
  }

  @Test func liveAPIClientIsNotUsedInTests() async throws {
    let user = try await DependencyValues.current.apiClient.fetchUser(5)
    #expect(user.name == "User 5")
  }

  @Test func misuseArticleGraphIsWhatItShows() throws {
    let article = try DocCArticlesTests.article("Handling-bad-input-and-misuse.md")
    let graph = graphAndInputs()
    #expect(article.contains("```text\n" + graph.text + "```"))
    #expect(article.contains("```mermaid\n" + graph.mermaid + "```"))
  }

  @Test func serverContainerNeedsEveryInput() {
    #expect(makeServerContainer(port: 8080, databaseURL: nil) == nil)
    // What the example prints: short names (an array's own description qualifies them).
    let missing = DependencyValues(context: .default).unsetInputs(among: [DatabaseURLKey.self])
    #expect(missing.map { "\($0)" }.joined(separator: ", ") == "DatabaseURLKey")
    let values = makeServerContainer(port: 8080, databaseURL: "postgres://localhost/app")
    #expect(values?[ListenPortKey.self] == 8080)
    #expect(values?[DatabaseURLKey.self] == "postgres://localhost/app")
  }

  @Test func readmeServerPreparesServesAndShutsDownInOrder() async throws {
    #expect(try await runServer() == ["AccountServiceKey", "DatabasePoolKey"])
  }

  @Test func shopServesTenThousandRequestsAndShutsDownInReverseOrder() async throws {
    let run = try await runShop(requests: 10_000)
    #expect(run.wrongRequestIDs == 0)
    #expect(run.events.count == 6)
    #expect(run.events.first == "started pool")
    #expect(Set(run.events[1...2]) == ["started inventory", "started pricing"])
    #expect(Set(run.events[3...4]) == ["stopped inventory", "stopped pricing"])
    #expect(run.events.last == "stopped pool")
    #expect(run.shutdownOrder.last == "SimulatedPoolKey")
    let guide = try String(
      contentsOf: Self.packageRoot.appendingPathComponent("Examples.md"),
      encoding: .utf8
    )
    #expect(guide.contains("```text\n" + run.graph.text + "```"), "\(run.graph.text)")
  }

  @Test func readmeSnippetsRun() {
    quickStart()
    captureRules()
    explicitContainer()
    escaping()
    #expect(DependencyValues.current.logger is PrintLogger)
  }
}
