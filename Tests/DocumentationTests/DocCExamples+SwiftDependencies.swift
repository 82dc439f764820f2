// Compiled copies of the code blocks in Migrating-from-swift-dependencies.md that show what a
// migrated file looks like (the others are in DocCExamples+Migrating.swift). DocCArticlesTests
// checks that every ```swift block appears in a DocCExamples+ file line for line; edit both
// together.

import Testing
import TinyDependency
import TinyDependencyBuiltins
import TinyDependencyConcurrency
import TinyDependencyTesting

func environmentName() -> String {
  @Dependency(\.context) var context
  switch context {
  case .default: return "production"
  case .preview: return "preview"
  case .test: return "test"
  }
}

// MARK: - An interface module and a live module

struct AnalyticsClient: Sendable {
  var track: @Sendable (_ event: String, _ properties: [String: String]) async throws -> Void
}

extension AnalyticsClient: TestDependencyKey {
  static let testValue = Self(
    track: unimplemented("AnalyticsClient.track")
  )
}

extension DependencyValues {
  var analytics: AnalyticsClient {
    get { self[AnalyticsClient.self] }
    set { self[AnalyticsClient.self] = newValue }
  }
}

// In the live module:
extension AnalyticsClient: DependencyKey {
  static let defaultValue = Self(track: { event, properties in
    // send the event
  })
}

// MARK: - Child models

final class FeatureModel {
  @Dependency(\.analytics) var analytics
  var onboarding: OnboardingModel?

  func startOnboarding() {
    onboarding = withDependencies(from: self) {
      $0.analytics.track = { _, _ in }
    } operation: {
      OnboardingModel()
    }
  }
}

final class OnboardingModel {
  @Dependency(\.analytics) var analytics
}

// MARK: - Tests

@Suite(.dependencies { $0.continuousClock = .immediate })
struct OnboardingTests {
  @Test func tracksTheStart() async throws {
    let events = LockIsolated<[String]>([])
    let model = withDependencies {
      $0.analytics.track = { event, _ in events.withValue { $0.append(event) } }
    } operation: {
      FeatureModel()
    }
    model.startOnboarding()
    try await model.analytics.track("onboarding started", [:])
    #expect(events.value == ["onboarding started"])
  }

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func waitsForTheClock() async {
    await withDependencies {
      $0.continuousClock = TestClock()
    } operation: {
      @Dependency(\.continuousClock, as: TestClock<Duration>.self) var clock
      await clock.advance(by: .seconds(1))
      #expect(clock.now.offset == .seconds(1))
    }
  }
}

// MARK: - What stays out

private enum APIBaseURLKey: DependencyKey {
  static let defaultValue = "https://api.example.com"
}

extension DependencyValues {
  var apiBaseURL: String {
    get { self[APIBaseURLKey.self] }
    set { self[APIBaseURLKey.self] = newValue }
  }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
final class SearchModel {
  @Dependency(\.continuousClock) var clock
  var query = ""

  func queryChanged(_ query: String) async throws {
    try await clock.sleep(for: .milliseconds(300))  // the debounce a scheduler did
    self.query = query
  }
}

// MARK: - The examples do what the article says

struct Catalog: Sendable {
  var path: String
}

struct Migrator: Sendable {
  var catalog: Catalog
}

extension Catalog: DependencyKey {
  static let defaultValue = Catalog(path: "catalog.sqlite")
}

extension Migrator: DependencyKey {
  // Reading the catalog in the build makes it an input: it is built first, once, whatever
  // other threads read meanwhile.
  static var defaultValue: Migrator {
    @Dependency(Catalog.self) var catalog
    return Migrator(catalog: catalog)
  }
}

@Suite("The migration guide's examples work as it says")
struct SwiftDependenciesMigrationExamples {
  @Test func theLiveCaseIsNamedDefault() {
    #expect(environmentName() == "test")
    let live = withDependencies {
      $0.context = .live
    } operation: {
      environmentName()
    }
    #expect(live == "production")
  }

  @Test func theLiveModuleSuppliesTheDefaultAndTestsTheUnimplementedEndpoint() async {
    let live = DependencyValues(context: .default).analytics
    await #expect(throws: Never.self) { try await live.track("e", [:]) }
    await withKnownIssue {
      try await AnalyticsClient.testValue.track("e", [:])
    }
  }

  @Test func aChildGetsItsParentsDependencies() async throws {
    let parent = withDependencies {
      $0.analytics.track = { _, _ in
        struct Parent: Error {}; throw Parent()
      }
    } operation: {
      FeatureModel()
    }
    parent.startOnboarding()
    let child = try #require(parent.onboarding)
    try await child.analytics.track("ok", [:])
    await #expect(throws: (any Error).self) { try await parent.analytics.track("no", [:]) }
  }

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func aSchedulersDebounceIsAClocksSleep() async throws {
    let model = withDependencies {
      $0.continuousClock = .immediate
    } operation: {
      SearchModel()
    }
    try await model.queryChanged("blob")
    #expect(model.query == "blob")
    #expect(DependencyValues.current.apiBaseURL == "https://api.example.com")
  }

  @Test func aValueThatNeedsAnotherReadsItInItsBuild() {
    withDependencies {
      $0[Catalog.self] = Catalog(path: "test.sqlite")
    } operation: {
      @Dependency(Migrator.self) var migrator
      #expect(migrator.catalog.path == "test.sqlite")
    }
  }
}
