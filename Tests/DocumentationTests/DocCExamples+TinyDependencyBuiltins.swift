// Compiled copies of the code blocks in the TinyDependencyBuiltins catalog. DocCArticlesTests
// checks that every ```swift block of the catalogs appears in a DocCExamples+ file line for line;
// edit both together.

import Foundation
import Testing
import TinyDependency
import TinyDependencyBuiltins
import TinyDependencyTesting

// MARK: - TinyDependencyBuiltins

struct DayGreeting {
  @Dependency(\.date.now) var now
  @Dependency(\.calendar) var calendar

  func text() -> String {
    calendar.component(.hour, from: now) < 12 ? "Good morning" : "Good afternoon"
  }
}

@Test(
  .dependencies {
    var utc = Calendar(identifier: .gregorian)
    utc.timeZone = TimeZone(secondsFromGMT: 0)!
    $0.calendar = utc
    $0.date.now = Date(timeIntervalSince1970: 8 * 3600)
  }
)
func greetsTheMorning() {
  #expect(DayGreeting().text() == "Good morning")
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
actor Countdown {
  @Dependency(\.continuousClock) var clock
  private(set) var remaining: Int

  init(from seconds: Int) { remaining = seconds }

  func run() async throws {
    while remaining > 0 {
      try await clock.sleep(for: .seconds(1))
      remaining -= 1
    }
  }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
@Test func countdownCountsOncePerSecond() async throws {
  let clock = TestClock()
  let countdown = withDependencies {
    $0.continuousClock = clock
  } operation: {
    Countdown(from: 3)
  }
  let task = Task { try await countdown.run() }
  await clock.waitForSleepers(1)
  await clock.advance(by: .seconds(2))
  #expect(await countdown.remaining == 1)
  await clock.run()
  #expect(await countdown.remaining == 0)
  try await task.value
}
