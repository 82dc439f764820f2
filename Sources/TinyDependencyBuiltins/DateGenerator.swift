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
  /// Whether this is the test value's placeholder, which reports each use.
  @usableFromInline
  var isPlaceholder = false

  /// Creates a generator that calls `generate` for every date.
  ///
  /// - Parameter generate: Returns the current date.
  public init(_ generate: @escaping @Sendable () -> Date) {
    self.generate = generate
  }

  /// The test value: each use records an issue and returns the reference date.
  static var placeholder: Self {
    var made = Self { Date(timeIntervalSinceReferenceDate: 0) }
    made.isPlaceholder = true
    return made
  }

  /// Records a use of the placeholder, at the caller's site when it is known.
  @usableFromInline
  static func reportPlaceholder(at site: SourceSite?) {
    Placeholder.report(
      "date",
      returned: "Date(timeIntervalSinceReferenceDate: 0)",
      fix: "`$0.date = .constant(someDate)` or `$0.date.now = someDate`",
      at: site
    )
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
    @inlinable get {
      if isPlaceholder {
        Self.reportPlaceholder(at: nil)
      }
      return generate()
    }
    set {
      generate = { newValue }
      isPlaceholder = false
    }
  }

  /// Returns the current date.
  ///
  /// - Parameters:
  ///   - fileID: The file ID of the caller, where the placeholder's issue is recorded.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  ///   - column: The column of the caller.
  /// - Returns: The date.
  @inlinable
  public func callAsFunction(
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
  ) -> Date {
    if isPlaceholder {
      Self.reportPlaceholder(at: SourceSite(fileID, filePath, line, column))
    }
    return generate()
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
    return .placeholder
  }
}
