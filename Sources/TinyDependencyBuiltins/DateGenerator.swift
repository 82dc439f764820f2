public import Foundation
public import TinyDependency

/// A dependency that tells the current date: `date()` or `date.now`.
///
/// ```swift
/// final class Note {
///   @Dependency(\.date.now) var now
///   @Dependency(\.date) var date
/// }
///
/// withDependencies {
///   $0.date = .constant(Date(timeIntervalSince1970: 1_000_000))
/// } operation: {
///   // every read of the date gives that instant
/// }
/// ```
///
/// The live value returns `Date()`. The test value fails loudly: each call records an issue
/// naming `\.date` and returns the placeholder `Date(timeIntervalSinceReferenceDate: 0)`
/// (2001-01-01 00:00:00 UTC). Previews use the live value.
public struct DateGenerator: Sendable {
  @usableFromInline
  var generate: @Sendable () -> Date

  /// Creates a generator that calls `generate` for every date.
  ///
  /// - Parameter generate: Returns the current date.
  public init(_ generate: @escaping @Sendable () -> Date) {
    self.generate = generate
  }

  /// A generator that always returns `now`.
  ///
  /// - Parameter now: The date to return.
  /// - Returns: The generator.
  public static func constant(_ now: Date) -> Self {
    Self { now }
  }

  /// The current date; setting it makes the generator return that date from then on.
  public var now: Date {
    @inlinable get { generate() }
    set { generate = { newValue } }
  }

  /// Returns the current date.
  ///
  /// - Returns: The date.
  @inlinable
  public func callAsFunction() -> Date {
    generate()
  }
}

extension DependencyValues {
  /// The current date: `Date()` live; in tests, override it or each read records an issue.
  public var date: DateGenerator {
    @inlinable get { self[DateGeneratorKey.self] }
    set { self[DateGeneratorKey.self] = newValue }
  }
}

/// The key of ``DependencyValues/date``.
@usableFromInline
enum DateGeneratorKey: DependencyKey, _ReportsItsOwnUses {
  @usableFromInline static var defaultValue: DateGenerator { DateGenerator { Date() } }
  @usableFromInline static var previewValue: DateGenerator { defaultValue }
  @usableFromInline static var testValue: DateGenerator {
    noteTestValueIsPlaceholder()
    return DateGenerator {
      Placeholder.report(
        "date",
        returned: "Date(timeIntervalSinceReferenceDate: 0)",
        fix: "`$0.date = .constant(someDate)` or `$0.date.now = someDate`"
      )
      return Date(timeIntervalSinceReferenceDate: 0)
    }
  }
}
