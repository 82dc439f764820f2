import Foundation
import Testing
import TinyDependency
import TinyDependencyBuiltins
import TinyDependencyTesting
import TinyDependencyValidation

/// Whether `issue` is the placeholder issue of the built-in `property`.
func isPlaceholderIssue(_ issue: Issue, _ property: String) -> Bool {
  issue.comments.contains {
    $0.rawValue.hasPrefix("Unimplemented: @Dependency(\\.\(property))")
  } && issue.sourceLocation?.fileName != "Placeholder.swift"
}

@Suite("Built-ins fail loudly in tests", .dependencies)
struct PlaceholderTests {
  // MARK: - An issue naming the key, and the documented placeholder

  @Test func dateRecordsAnIssueAndReturnsTheReferenceDate() {
    @Dependency(\.date.now) var now
    withKnownIssue {
      #expect(now == Date(timeIntervalSinceReferenceDate: 0))
    } matching: {
      isPlaceholderIssue($0, "date")
    }
  }

  @Test func uuidRecordsAnIssueAndReturnsUUIDZero() {
    @Dependency(\.uuid) var uuid
    withKnownIssue {
      #expect(uuid() == UUID(0))
    } matching: {
      isPlaceholderIssue($0, "uuid")
    }
  }

  @Test func calendarRecordsAnIssueAndReturnsGregorianUTC() {
    withKnownIssue {
      let calendar = DependencyValues.current.calendar
      #expect(calendar.identifier == .gregorian)
      #expect(calendar.timeZone.secondsFromGMT() == 0)
    } matching: {
      isPlaceholderIssue($0, "calendar")
    }
  }

  @Test func localeRecordsAnIssueAndReturnsPOSIX() {
    withKnownIssue {
      #expect(DependencyValues.current.locale.identifier == "en_US_POSIX")
    } matching: {
      isPlaceholderIssue($0, "locale")
    }
  }

  @Test func timeZoneRecordsAnIssueAndReturnsUTC() {
    withKnownIssue {
      #expect(DependencyValues.current.timeZone.secondsFromGMT() == 0)
    } matching: {
      isPlaceholderIssue($0, "timeZone")
    }
  }

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func continuousClockRecordsAnIssueAndSleepsReturnAtOnce() async throws {
    @Dependency(\.continuousClock) var clock
    try await withKnownIssue {
      try await clock.sleep(for: .seconds(3600))
    } matching: {
      isPlaceholderIssue($0, "continuousClock")
    }
  }

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func suspendingClockRecordsAnIssueWhenItsTimeIsRead() {
    @Dependency(\.suspendingClock) var clock
    withKnownIssue {
      _ = clock.now
    } matching: {
      isPlaceholderIssue($0, "suspendingClock")
    }
  }

  @Test func randomRecordsAnIssueAndLendsSeedZero() {
    @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator
    var expected = SeededRandomNumberGenerator(seed: 0)
    withKnownIssue {
      let drawn = withRandomNumberGenerator { $0.next() }
      #expect(drawn == expected.next())
    } matching: {
      isPlaceholderIssue($0, "withRandomNumberGenerator")
    }
  }

  // MARK: - Quiet when overridden

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test(
    .dependency(\.date.now, Date(timeIntervalSince1970: 0)),
    .dependency(\.calendar, Calendar(identifier: .iso8601)),
    .dependency(\.locale, Locale(identifier: "fr_FR")),
    .dependency(\.timeZone, TimeZone(secondsFromGMT: 3600)!),
    .dependency(\.continuousClock, ImmediateClock())
  )
  func overridesThroughKeyPathTraitsRecordNothing() async throws {
    @Dependency(\.date.now) var now
    @Dependency(\.continuousClock) var clock
    #expect(now == Date(timeIntervalSince1970: 0))
    #expect(DependencyValues.current.calendar.identifier == .iso8601)
    #expect(DependencyValues.current.locale.identifier == "fr_FR")
    #expect(DependencyValues.current.timeZone.secondsFromGMT() == 3600)
    try await clock.sleep(for: .seconds(1))
  }

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func readingAClockWithoutUsingItRecordsNothing() {
    // Only using the placeholder is an issue: code may hold a clock it never uses in a test.
    @Dependency(\.continuousClock) var clock
    _ = clock
  }

  // MARK: - The validator

  /// Eight with the clocks, which discovery finds only on systems that have them.
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func validatorCountsBuiltInsWithoutOverridesAsMissingTestValues() {
    let report = DependencyValidator.validate(Self.builtinKeys)
    let missing = Set(report.findings.filter { $0.kind == .missingTestValue }.map(\.key))
    #expect(missing.count == 8, "\(report)")
  }

  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func validatorAcceptsBuiltInsThatAreOverridden() {
    let report = DependencyValidator.validate(Self.builtinKeys) { values in
      values.date = .constant(Date(timeIntervalSince1970: 0))
      values.uuid = .incrementing
      values.calendar = Calendar(identifier: .gregorian)
      values.locale = Locale(identifier: "en_US")
      values.timeZone = TimeZone(secondsFromGMT: 0)!
      values.continuousClock = TestClock()
      values.suspendingClock = TestClock()
      values.withRandomNumberGenerator = .seeded(1)
    }
    #expect(report.isComplete, "\(report)")
  }

  /// The built-in keys, found by discovery: they are internal to TinyDependencyBuiltins.
  static var builtinKeys: [any DependencyKey.Type] {
    (DependencyValidator.discoveredKeys() ?? []).filter {
      _typeName($0).hasPrefix("TinyDependencyBuiltins.")
    }
  }
}
