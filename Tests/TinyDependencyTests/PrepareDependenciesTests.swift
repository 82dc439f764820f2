import Dispatch
import Foundation
import TestSubprocess
import Testing

@testable import TinyDependency

/// An input the app sets at launch.
enum LaunchURLKey: DependencyInputKey {
  typealias Value = String
}

@Suite("prepareDependencies sets the process root once")
struct PrepareDependenciesTests {
  /// A root of its own, so these tests leave the process root alone, and its registry.
  struct Root {
    let values: DependencyValues
    let registry = EntryPointRecord()

    init(context: DependencyContext = .default) {
      values = DependencyValues(storage: DependencyStorage(context: context, isProcessRoot: true))
    }

    func prepare(line: Int, _ update: (inout DependencyValues) -> Void) -> String? {
      var prepared = DependencyValues(context: values.context)
      update(&prepared)
      let site = SourceSite("App/Main.swift", "/App/Main.swift", line, 1)
      return registry.apply(EntryPointRecord.changes(in: prepared), to: values.storage, at: site)
        .message(at: site, context: values.context)
    }
  }

  // MARK: - What a call sets

  @Test func preparedValueIsReadAtTheRootAndInScopesDerivedFromIt() {
    let root = Root()
    #expect(root.prepare(line: 1) { $0.greeting = "prepared" } == nil)
    #expect(root.values.greeting == "prepared")
    withDependencies(root.values) {
      #expect(Greeting().value == "prepared")
      withDependencies {
        $0.leaf = "other"
      } operation: {
        #expect(DependencyValues.current.greeting == "prepared")
      }
      withDependencies {
        $0.greeting = "scoped"
      } operation: {
        #expect(DependencyValues.current.greeting == "scoped")
      }
    }
    #expect(DependencyValues(context: .default).greeting == "hello")
  }

  @Test func readsInsideTheUpdateDoNotBuildInTheRoot() {
    let root = Root()
    _ = root.prepare(line: 1) { $0.greeting = $0.left + "!" }
    #expect(root.values.storage.builtValue(for: ObjectIdentifier(LeftKey.self)) == nil)
    #expect(root.values.greeting == "left(leaf)!")
  }

  @Test func everyKeySetReachesTheRootWhateverReadsComeBetween() {
    let root = Root()
    #expect(
      root.prepare(line: 1) {
        $0.greeting = "first"
        _ = $0.top
        $0.leaf = "second"
        _ = $0.right
        $0.contextName = "third"
      } == nil
    )
    #expect(root.values.greeting == "first")
    #expect(root.values.leaf == "second")
    #expect(root.values.contextName == "third")
  }

  @Test func keyPathWriteAfterASetKeepsBothKeys() {
    let root = Root()
    #expect(
      root.prepare(line: 1) {
        $0.greeting = "first"
        $0.launchConfig.name = "prod"
      } == nil
    )
    #expect(root.values.greeting == "first")
    #expect(root.values.launchConfig == LaunchConfig(name: "prod", port: 80))
  }

  // MARK: - Later calls

  @Test func secondCallKeepsPreparedValuesAndNamesBothCallSites() throws {
    let root = Root()
    _ = root.prepare(line: 10) { $0.greeting = "first" }
    let message = try #require(
      root.prepare(line: 20) {
        $0.greeting = "second"
        $0.leaf = "new leaf"
      }
    )
    #expect(root.values.greeting == "first")
    #expect(root.values.leaf == "new leaf")
    #expect(message.contains("called again, at App/Main.swift:20"))
    #expect(message.contains("the first call was at App/Main.swift:10"))
    #expect(
      message.contains("Not applied, so that nothing already handed out changes: GreetingKey")
    )
    #expect(message.contains("Applied: LeafKey."))
    #expect(message.contains("Fix: call prepareDependencies once"))
  }

  @Test func lateFirstCallKeepsWhatTheRootAlreadyBuilt() throws {
    let root = Root()
    let before = root.values.sharedService
    let message = try #require(
      root.prepare(line: 5) {
        $0.sharedService = Service("prepared")
        $0.greeting = "prepared"
      }
    )
    #expect(root.values.sharedService === before)
    #expect(root.values.greeting == "prepared")
    #expect(message.contains("prepareDependencies at App/Main.swift:5 came after"))
    #expect(message.contains("SharedServiceKey"))
    #expect(message.contains("Applied: GreetingKey."))
  }

  @Test func keyReadByABuiltValueIsKept() throws {
    let root = Root()
    #expect(root.values.left == "left(leaf)")
    let message = try #require(root.prepare(line: 1) { $0.leaf = "changed" })
    #expect(message.contains("LeafKey"))
    #expect(root.values.leaf == "leaf")
    #expect(root.values.left == "left(leaf)")
  }

  @Test func transientKeyIsReportedAndNotApplied() throws {
    let root = Root()
    let message = try #require(
      root.prepare(line: 1) { $0[TransientServiceKey.self] = Service("prepared") }
    )
    #expect(message.contains("Not applied: TransientServiceKey, transient"))
    #expect(root.values[TransientServiceKey.self].name == "transient")
  }

  @Test func previewCallsAgainAndReplaces() {
    let root = Root(context: .preview)
    #expect(root.prepare(line: 1) { $0.greeting = "first" } == nil)
    #expect(root.values.greeting == "first")
    #expect(root.prepare(line: 1) { $0.greeting = "second" } == nil)
    #expect(root.values.greeting == "second")
  }

  @Test func concurrentReadsDuringAPreviewReplacementSeeOneValueOrTheOther() async {
    let root = Root(context: .preview)
    _ = root.prepare(line: 1) { $0.greeting = "a" }
    let values = root.values
    await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<4 {
        group.addTask {
          (0..<10_000).allSatisfy { _ in ["a", "b"].contains(values.greeting) }
        }
      }
      _ = root.prepare(line: 1) { $0.greeting = "b" }
      for await ok in group { #expect(ok) }
    }
    #expect(values.greeting == "b")
  }

  // MARK: - The process root (each in a process of its own)

  #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test(.oneExitTestAtATime)
    func processRootSeesPreparedValuesOnEveryThread() async throws {
      let result = try await #require(
        processExitsWith: .success,
        observing: [\.standardOutputContent, \.standardErrorContent]
      ) {
        prepareDependencies {
          $0.greeting = "prepared"
          $0[LaunchURLKey.self] = "https://api.example.com"
        }
        let detached = await Task.detached { DependencyValues.current.greeting }.value
        let queued = DispatchQueue.global().sync { DependencyValues.current[LaunchURLKey.self] }
        let unset = DependencyValues.current.unsetInputs(among: [LaunchURLKey.self])
        let testContainer = DependencyValues(context: .test)
        print(detached, queued, unset.count, testContainer.greeting)
        print(EntryPointRecord.process.values.map(\.key.name))
      }
      let output = String(decoding: result.standardOutputContent, as: UTF8.self)
      // An explicit container does not derive from the root: it does not see prepared values.
      #expect(output.contains("prepared https://api.example.com 0 hello\n"))
      #expect(output.contains("[\"GreetingKey\", \"LaunchURLKey\"]"))
      #expect(result.standardErrorContent.isEmpty)
    }

    @Test(.oneExitTestAtATime)
    func secondProcessRootCallIsReportedOnStandardError() async throws {
      let result = try await #require(
        processExitsWith: .success,
        observing: [\.standardOutputContent, \.standardErrorContent]
      ) {
        prepareDependencies { $0.greeting = "first" }
        prepareDependencies { $0.greeting = "second" }
        print(DependencyValues.current.greeting)
      }
      let output = String(decoding: result.standardOutputContent, as: UTF8.self)
      let error = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(output == "first\n")
      #expect(error.contains("prepareDependencies was called again, at TinyDependencyTests/"))
      #expect(error.contains("PrepareDependenciesTests.swift"))
      #expect(error.contains("GreetingKey"))
    }
  #endif
}

/// A value set field by field at launch, through a key path.
struct LaunchConfig: Equatable, Sendable {
  var name = "dev"
  var port = 80
}

private enum LaunchConfigKey: DependencyKey {
  static var defaultValue: LaunchConfig { LaunchConfig() }
}

extension DependencyValues {
  fileprivate var launchConfig: LaunchConfig {
    get { self[LaunchConfigKey.self] }
    set { self[LaunchConfigKey.self] = newValue }
  }
}

private struct Greeting {
  @Dependency(\.greeting) var value
}
