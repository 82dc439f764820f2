public import Foundation
public import TinyDependency

extension DependencyValues {
  /// The calendar to compute dates with: `Calendar.autoupdatingCurrent` live.
  ///
  /// In tests, a read without an override records an issue naming `\.calendar` and returns the
  /// placeholder: the Gregorian calendar in UTC with the `en_US_POSIX` locale. Previews use the
  /// live value.
  public var calendar: Calendar {
    get { self[CalendarKey.self] }
    set { self[CalendarKey.self] = newValue }
  }

  /// The locale to format with: `Locale.autoupdatingCurrent` live.
  ///
  /// In tests, a read without an override records an issue naming `\.locale` and returns the
  /// placeholder `Locale(identifier: "en_US_POSIX")`. Previews use the live value.
  public var locale: Locale {
    get { self[LocaleKey.self] }
    set { self[LocaleKey.self] = newValue }
  }

  /// The time zone to show dates in: `TimeZone.autoupdatingCurrent` live.
  ///
  /// In tests, a read without an override records an issue naming `\.timeZone` and returns the
  /// placeholder UTC (`TimeZone(secondsFromGMT: 0)`). Previews use the live value.
  public var timeZone: TimeZone {
    get { self[TimeZoneKey.self] }
    set { self[TimeZoneKey.self] = newValue }
  }
}

/// The key of ``DependencyValues/calendar``.
enum CalendarKey: DependencyKey, _ReportsItsOwnUses {
  static var defaultValue: Calendar { .autoupdatingCurrent }
  static var previewValue: Calendar { defaultValue }
  static var testValue: Calendar {
    noteTestValueIsPlaceholder()
    Placeholder.reportBuild(
      "calendar",
      returned: "the Gregorian calendar in UTC with the en_US_POSIX locale",
      fix: "`$0.calendar = Calendar(identifier: .gregorian)`"
    )
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(secondsFromGMT: 0)!
    calendar.locale = Locale(identifier: "en_US_POSIX")
    return calendar
  }
}

/// The key of ``DependencyValues/locale``.
enum LocaleKey: DependencyKey, _ReportsItsOwnUses {
  static var defaultValue: Locale { .autoupdatingCurrent }
  static var previewValue: Locale { defaultValue }
  static var testValue: Locale {
    noteTestValueIsPlaceholder()
    Placeholder.reportBuild(
      "locale",
      returned: "Locale(identifier: \"en_US_POSIX\")",
      fix: "`$0.locale = Locale(identifier: \"en_US\")`"
    )
    return Locale(identifier: "en_US_POSIX")
  }
}

/// The key of ``DependencyValues/timeZone``.
enum TimeZoneKey: DependencyKey, _ReportsItsOwnUses {
  static var defaultValue: TimeZone { .autoupdatingCurrent }
  static var previewValue: TimeZone { defaultValue }
  static var testValue: TimeZone {
    noteTestValueIsPlaceholder()
    Placeholder.reportBuild(
      "timeZone",
      returned: "UTC",
      fix: "`$0.timeZone = TimeZone(identifier: \"Europe/Paris\")!`"
    )
    return TimeZone(secondsFromGMT: 0)!
  }
}
