public import TinyDependency

extension DependencyValues {
  /// The clock to wait with, which keeps running while the system sleeps: `ContinuousClock()`
  /// live.
  ///
  /// In tests, use a ``TestClock`` or an ``ImmediateClock``:
  ///
  /// ```swift
  /// let clock = TestClock()
  /// withDependencies { $0.continuousClock = clock } operation: { … }
  /// ```
  ///
  /// Without an override, a test gets an ``UnimplementedClock``: each `now` or `sleep` records
  /// an issue naming `\.continuousClock`, and sleeps return at once. Previews use the live clock.
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  public var continuousClock: any Clock<Duration> {
    get { self[ContinuousClockKey.self] }
    set { self[ContinuousClockKey.self] = newValue }
  }

  /// The clock to wait with, which stops while the system sleeps: `SuspendingClock()` live.
  ///
  /// Without an override, a test gets an ``UnimplementedClock``: each `now` or `sleep` records
  /// an issue naming `\.suspendingClock`, and sleeps return at once. Previews use the live clock.
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  public var suspendingClock: any Clock<Duration> {
    get { self[SuspendingClockKey.self] }
    set { self[SuspendingClockKey.self] = newValue }
  }
}

/// The key of ``DependencyValues/continuousClock``.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
enum ContinuousClockKey: DependencyKey, _ReportsItsOwnUses {
  static var defaultValue: any Clock<Duration> { ContinuousClock() }
  static var previewValue: any Clock<Duration> { defaultValue }
  static var testValue: any Clock<Duration> {
    noteTestValueIsPlaceholder()
    return UnimplementedClock(name: "continuousClock")
  }
}

/// The key of ``DependencyValues/suspendingClock``.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
enum SuspendingClockKey: DependencyKey, _ReportsItsOwnUses {
  static var defaultValue: any Clock<Duration> { SuspendingClock() }
  static var previewValue: any Clock<Duration> { defaultValue }
  static var testValue: any Clock<Duration> {
    noteTestValueIsPlaceholder()
    return UnimplementedClock(name: "suspendingClock")
  }
}
