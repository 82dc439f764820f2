import Foundation
import Testing
import TinyDependency
import TinyDependencyBuiltins
import TinyDependencyTesting

/// swift-dependencies' `PrepareDependenciesTests`, written for this library: a test that calls
/// `prepareDependencies` prepares its own root, so tests do not see each other's values.
@Suite("prepareDependencies prepares the running test's root")
struct PrepareDependenciesInTestsTests {
  @Test(.serialized, .dependency(\.uuid, .incrementing), arguments: [1, 2, 3])
  func eachCaseStartsItsOwnIncrementingCount(value: Int) {
    @Dependency(\.uuid) var uuid
    #expect(uuid() == UUID(0))
  }

  @Test func isolation1() { expectPreparedDate(1) }
  @Test func isolation2() { expectPreparedDate(2) }
  @Test func isolation3() { expectPreparedDate(3) }
  @Test func isolation4() { expectPreparedDate(4) }

  func expectPreparedDate(_ seconds: Double) {
    prepareDependencies {
      $0.date.now = Date(timeIntervalSince1970: seconds)
    }
    @Dependency(\.date.now) var now
    #expect(now.timeIntervalSince1970 == seconds)
  }

  @Test func aKeySetBeforeAKeyPathWriteIsApplied() {
    prepareDependencies {
      $0[PreparedClientKey.self] = PreparedClient(get: { 7 })
      // A key-path write reads `date` first, which freezes the closure's container.
      $0.date.now = Date(timeIntervalSince1970: 9)
    }
    #expect(DependencyValues.current[PreparedClientKey.self].get() == 7)
    @Dependency(\.date.now) var now
    #expect(now.timeIntervalSince1970 == 9)
  }

  @Test func workOutsideTheTestDoesNotSeeTheTestsValues() async {
    prepareDependencies { $0[PreparedClientKey.self] = PreparedClient(get: { 5 }) }
    #expect(DependencyValues.current[PreparedClientKey.self].get() == 5)
    // A detached task reads the process root, which the test left alone.
    let outside = Task.detached { DependencyValues.current[PreparedClientKey.self].get() }
    #expect(await outside.value != 5)
  }
}

/// swift-dependencies' `DependencyValuesTests.testPrepareDependencies_*`, written for this
/// library in Swift Testing.
@Suite("prepareDependencies in a test, as swift-dependencies does")
struct PrepareDependenciesPortTests {
  @Test func setsADependency() {
    prepareDependencies {
      $0.date = DateGenerator { Date(timeIntervalSinceReferenceDate: 0) }
    }
    @Dependency(\.date.now) var now
    #expect(now == Date(timeIntervalSinceReferenceDate: 0))
  }

  @Test func returnsTheClosuresResult() {
    let result = prepareDependencies { _ in 42 }
    #expect(result == 42)
  }

  @Test func setsTheLiveContext() {
    prepareDependencies {
      $0.context = .live
    }
    @Dependency(\.context) var context
    #expect(context == .live)
    @Dependency(PreparedClientKey.self) var client
    #expect(client.get() == PreparedClientKey.liveValue.get())
  }

  @Test func setsADependencyInAScopeThatChoseTheLiveContext() {
    withDependencies {
      $0.context = .live
    } operation: {
      prepareDependencies {
        $0[PreparedClientKey.self] = PreparedClient(get: { 1729 })
      }
      @Dependency(PreparedClientKey.self) var client
      #expect(client.get() == 1729)
    }
  }

  @Test func aSecondCallIsReportedAndKeepsTheFirstValue() {
    prepareDependencies {
      $0.date = DateGenerator { Date(timeIntervalSinceReferenceDate: 0) }
    }
    withKnownIssue {
      prepareDependencies {
        $0.date = DateGenerator { Date(timeIntervalSince1970: 0) }
      }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("prepareDependencies was called again") }
    }
    @Dependency(\.date.now) var now
    #expect(now == Date(timeIntervalSinceReferenceDate: 0))
  }

  @Test func aSecondCallAfterAReadIsReported() {
    prepareDependencies {
      $0.date = DateGenerator { Date(timeIntervalSinceReferenceDate: 0) }
    }
    @Dependency(\.date) var date
    _ = date
    withKnownIssue {
      prepareDependencies {
        $0.date = DateGenerator { Date(timeIntervalSince1970: 0) }
      }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("DateGeneratorKey") }
    }
  }

  @Test func settingTwiceInOneCallKeepsTheLast() {
    prepareDependencies {
      $0.date = DateGenerator { Date(timeIntervalSinceReferenceDate: 42) }
      $0.date = DateGenerator { Date(timeIntervalSinceReferenceDate: 1729) }
    }
    @Dependency(\.date.now) var now
    #expect(now == Date(timeIntervalSinceReferenceDate: 1729))
  }

  @Test func aReadBeforeThePrepareIsReportedAndKeepsItsValue() {
    withDependencies {
      $0.context = .live
    } operation: {
      @Dependency(\.date) var date
      _ = date()
      withKnownIssue {
        prepareDependencies {
          $0.date = DateGenerator { Date(timeIntervalSinceReferenceDate: 42) }
        }
      } matching: { issue in
        issue.comments.contains { $0.rawValue.contains("Not applied") }
      }
      #expect(date() != Date(timeIntervalSinceReferenceDate: 42))
    }
  }

  @Test func aPreviewReplacesAValueReadBefore() {
    withDependencies {
      $0.context = .preview
    } operation: {
      @Dependency(\.date) var date
      _ = date()
      prepareDependencies {
        $0.date = DateGenerator { Date(timeIntervalSinceReferenceDate: 42) }
      }
      #expect(date() == Date(timeIntervalSinceReferenceDate: 42))
    }
  }

  @Test func setsAnEndpoint() {
    prepareDependencies {
      $0[PreparedClientKey.self].get = { 42 }
    }
    @Dependency(PreparedClientKey.self) var client
    #expect(client.get() == 42)
  }

  @Test func withDependenciesStillOverridesAPreparedValue() {
    prepareDependencies {
      $0.date.now = Date(timeIntervalSince1970: 42)
    }
    withDependencies {
      $0.date.now = Date(timeIntervalSince1970: 1729)
    } operation: {
      @Dependency(\.date.now) var now
      #expect(now == Date(timeIntervalSince1970: 1729))
    }
    @Dependency(\.date.now) var now
    #expect(now == Date(timeIntervalSince1970: 42))
  }

  // MARK: - Beyond the port

  @Test(.dependencies)
  func aTraitsRootIsPreparedToo() {
    prepareDependencies { $0[PreparedClientKey.self] = PreparedClient(get: { 7 }) }
    @Dependency(PreparedClientKey.self) var client
    #expect(client.get() == 7)
  }

  @Test(.dependencies)
  func aContextItCannotHonourIsReported() {
    withKnownIssue {
      prepareDependencies { $0.context = .live }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("context") }
    }
    #expect(DependencyValues.current.context == .test)
  }
}

/// A client with an endpoint, for the ported tests.
struct PreparedClient: Sendable {
  var get: @Sendable () -> Int
}

enum PreparedClientKey: DependencyKey {
  static let liveValue = PreparedClient(get: { 1 })
  static var defaultValue: PreparedClient { liveValue }
  static var testValue: PreparedClient { PreparedClient(get: { 0 }) }
}
