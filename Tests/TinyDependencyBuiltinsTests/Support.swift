import Foundation

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
