import Dispatch
import TestSubprocess
import Testing
import TinyDependency
import TinyDependencyGraph
import TinyDependencyTesting
import TinyDependencyValidation

@Suite("The validator discovers and checks main-actor keys under their own names")
struct MainActorKeyValidationTests {
  // MARK: - Discovery

  @Test func discoveryListsMainActorKeysByTheirOwnNames() throws {
    let keys = try #require(DependencyValidator.discoveredMainActorKeys())
    let names = keys.map { _typeName($0, qualified: false) }
    #expect(Set(names).isSuperset(of: ["TestedBannerKey", "UntestedBannerKey"]), "\(names)")
    #expect(keys.contains { $0 == UntestedBannerKey.self })
    #expect(!names.contains { $0.contains("MainActorKey") })
  }

  @Test func skippedGenericKeysNoLongerListTheWrapperMainActorKeysAreStoredUnder() async throws {
    // Used, so that the optimizer keeps the generic key's conformance.
    let generic = await MainActor.run {
      DependencyValues(context: .test)[GenericBannerKey<Int>.self].text
    }
    #expect(generic == "test Int")
    let skipped = try #require(DependencyValidator.skippedGenericKeys())
    #expect(!skipped.contains { $0.hasPrefix("MainActorKey") }, "\(skipped)")
    #expect(skipped.contains("GenericBannerKey"), "a generic main-actor key, by its own name")
  }

  // MARK: - Validation

  @MainActor
  @Test func aMainActorKeyWithATestValueOfItsOwnPasses() {
    let report = DependencyValidator.validate(mainActorKeys: [TestedBannerKey.self])
    #expect(report.isComplete, "\(report)")
    #expect(report.keyCount == 1)
    #expect(report.graph.nodes.map(\.name) == ["TestedBannerKey"])
  }

  @MainActor
  @Test func aMainActorKeyWithoutATestValueIsAFindingUnderItsOwnName() throws {
    let before = UntestedBannerKey.liveBuilds
    let report = DependencyValidator.validate(mainActorKeys: [UntestedBannerKey.self])
    let finding = try #require(report.findings.first)
    #expect(report.findings.count == 1)
    #expect(finding.key == "UntestedBannerKey")
    #expect(finding.kind == .missingTestValue)
    #expect(
      finding.message.contains("Declare `@MainActor static var testValue` on UntestedBannerKey")
    )
    #expect(!report.description.contains("MainActorKey"), "\(report)")
    // As documented: the main actor cannot stop halfway, so its live default was built there.
    #expect(UntestedBannerKey.liveBuilds == before + 1)
  }

  @MainActor
  @Test func theEveryKeyCheckCatchesAMainActorKeyWithoutATestValue() throws {
    #expect(DependencyValues(context: .test)[BannerTextKey.self] == "test text")
    let keys = try #require(DependencyValidator.discoveredKeys())
    let mainActorKeys = try #require(DependencyValidator.discoveredMainActorKeys())
    let report = DependencyValidator.validate(
      keys.filter { _typeName($0).contains("Banner") },
      mainActorKeys: mainActorKeys.filter { _typeName($0).contains("Banner") }
    )
    #expect(report.keyCount == 5, "BannerTextKey and four main-actor keys: \(report.graph)")
    let missing = report.findings.filter { $0.kind == .missingTestValue }.map(\.key)
    #expect(missing == ["UntestedBannerKey"], "\(report)")
  }

  @MainActor
  @Test func aMainActorKeyReadByAPlainKeysBuilderIsInTheGraph() {
    let report = DependencyValidator.validate(mainActorKeys: [BannerPageKey.self])
    #expect(report.isComplete, "\(report)")
    #expect(
      report.graph.edges.map(\.description) == [
        "BannerPageKey -> PageTitleKey", "PageTitleKey -> TestedBannerKey",
      ]
    )
  }

  @MainActor
  @Test func aPlainKeyWithoutATestValueReadByAMainActorKeyIsALiveLeak() throws {
    let report = DependencyValidator.validate(mainActorKeys: [LeakyBannerKey.self])
    let leak = try #require(report.findings.first { $0.kind == .liveValueInTests })
    #expect(leak.key == "LeakyBannerKey")
    #expect(leak.path == ["LeakyBannerKey", "LiveOnlyKey"])
  }

  @MainActor
  @Test func plainAndMainActorKeysAreCheckedTogether() {
    let report = DependencyValidator.validate(
      [GreetingKey.self, LiveOnlyKey.self],
      mainActorKeys: [TestedBannerKey.self],
      previews: true
    )
    #expect(report.keyCount == 3)
    #expect(
      report.findings.map(\.description).map { String($0.prefix(while: { $0 != ":" })) } == [
        "GreetingKey", "LiveOnlyKey", "LiveOnlyKey", "TestedBannerKey",
      ]
    )
    #expect(
      report.findings.map(\.kind) == [
        .missingPreviewValue, .missingPreviewValue, .missingTestValue, .missingPreviewValue,
      ]
    )
  }

  @MainActor
  @Test func checkRecordsTheFindingAtTheCaller() {
    let recorded = Counter()
    withKnownIssue {
      DependencyValidator.check(mainActorKeys: [UntestedBannerKey.self])
    } matching: { issue in
      _ = recorded.next()
      return issue.sourceLocation?.fileName == "MainActorKeyValidationTests.swift"
        && issue.comments.contains { $0.rawValue.contains("UntestedBannerKey: has no testValue") }
    }
    #expect(recorded.next() == 2, "one issue")
  }

  @MainActor
  @Test func anInputSetInConfigureIsReadOnTheMainActor() {
    let report = DependencyValidator.validate(mainActorKeys: [EndpointSignKey.self]) {
      $0[EndpointKey.self] = "https://example.com"
    }
    #expect(report.isComplete, "\(report)")
    #expect(report.graph.edges.map(\.description) == ["EndpointSignKey -> EndpointKey"])
  }

  #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test(.oneExitTestAtATime)
    func aCycleMetOnTheMainActorStopsNamingTheKeys() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        await MainActor.run {
          _ = DependencyValidator.validate(mainActorKeys: [LoopKey.self])
        }
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("a trace on the main actor met a dependency cycle"))
      #expect(message.contains("LoopKey -> LoopEchoKey -> LoopKey"))
      #expect(!message.contains("MainActorKey<"))
    }

    @Test(.oneExitTestAtATime)
    func anUnsetInputMetOnTheMainActorStopsNamingIt() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        await MainActor.run {
          _ = DependencyValidator.validate(mainActorKeys: [EndpointSignKey.self])
        }
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("a trace on the main actor read EndpointKey while nothing had set it")
      )
    }

    @Test(.oneExitTestAtATime)
    func aPlainKeyWhoseTestValueReadsAMainActorKeyStopsAmongThePlainKeys() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        _ = DependencyValidator.validate([PageTitleKey.self])
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("TestedBannerKey is a main-actor dependency"), "\(message)")
    }
  #endif
}

/// A main-actor service, made only on the main actor.
@MainActor
final class Banner {
  let text: String

  init(_ text: String) {
    dispatchPrecondition(condition: .onQueue(.main))
    self.text = text
  }
}

/// A main-actor key with a test value of its own.
enum TestedBannerKey: MainActorDependencyKey {
  static var defaultValue: Banner { Banner("live banner") }
  static var testValue: Banner { Banner("test banner") }
}

/// A main-actor key without a test value; counts its live builds.
enum UntestedBannerKey: MainActorDependencyKey {
  @MainActor static var liveBuilds = 0
  static var defaultValue: Banner {
    liveBuilds += 1
    return Banner("live untested banner")
  }
}

/// A generic main-actor key: discovery has no single type to return.
enum GenericBannerKey<T>: MainActorDependencyKey {
  static var defaultValue: Banner { Banner("\(T.self)") }
  static var testValue: Banner { Banner("test \(T.self)") }
}

/// A plain key whose builder reads a main-actor key: built on the main actor, where
/// ``BannerPageKey``'s test value reads it.
enum PageTitleKey: DependencyKey {
  static var defaultValue: String { "live title" }
  static var testValue: String {
    // Built on the main actor (see above): call the main-actor read as a plain closure, as
    // `MainActor.assumeIsolated` would on macOS 14 and later.
    let read: @MainActor () -> String = {
      "title of " + DependencyValues.current[TestedBannerKey.self].text
    }
    return unsafeBitCast(read, to: (() -> String).self)()
  }
}

/// A main-actor key whose test value reads a plain key.
enum BannerPageKey: MainActorDependencyKey {
  static var defaultValue: Banner { Banner("live page") }
  static var testValue: Banner { Banner("page: " + DependencyValues.current[PageTitleKey.self]) }
}

/// A plain key that the every-key check finds next to the main-actor ones.
enum BannerTextKey: DependencyKey {
  static let defaultValue = "live text"
  static let testValue = "test text"
}

/// A main-actor key whose test value reads a plain key without a test value.
enum LeakyBannerKey: MainActorDependencyKey {
  static var defaultValue: Banner { Banner("live leaky") }
  static var testValue: Banner { Banner("leaky: " + DependencyValues.current[LiveOnlyKey.self]) }
}

/// Main-actor keys whose test values read each other.
enum LoopKey: MainActorDependencyKey {
  static var defaultValue: Banner { Banner("live cycle") }
  static var testValue: Banner {
    Banner("cycle " + DependencyValues.current[LoopEchoKey.self].text)
  }
}

enum LoopEchoKey: MainActorDependencyKey {
  static var defaultValue: Banner { Banner("live echo") }
  static var testValue: Banner { Banner("echo " + DependencyValues.current[LoopKey.self].text) }
}

/// A main-actor key whose test value reads an input.
enum EndpointSignKey: MainActorDependencyKey {
  static var defaultValue: Banner { Banner("live endpoint") }
  static var testValue: Banner { Banner(DependencyValues.current[EndpointKey.self]) }
}
