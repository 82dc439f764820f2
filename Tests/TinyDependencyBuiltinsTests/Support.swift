import Foundation
import TinyDependencyBuiltins

/// A count that tasks update and tests read; `@unchecked Sendable`: guarded by its lock.
final class Tally: @unchecked Sendable {
  private let lock = NSLock()
  private var events: [String] = []

  func record(_ event: String) {
    lock.lock()
    events.append(event)
    lock.unlock()
  }

  var all: [String] {
    lock.lock()
    defer { lock.unlock() }
    return events
  }

  var count: Int { all.count }
}

extension TestClock {
  /// Waits until at least `count` tasks sleep on the clock: a test that starts tasks and then
  /// advances time needs them asleep first.
  func waitForSleepers(_ count: Int) async {
    while true {
      do {
        try await checkSuspension()
      } catch let error as SuspensionError where error.sleepers >= count {
        return
      } catch {}
    }
  }
}
