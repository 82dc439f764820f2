import Foundation

/// Runs `body` on a thread of its own and returns whether it finished within `seconds`; a body
/// that never finishes (a deadlock) is left behind, parked, and the test fails instead of
/// hanging the run. The test's task waits off the concurrency pool, so a test that waits for
/// seconds doesn't stall the async tests beside it.
///
/// The body's end is published under a lock that the waiting thread takes after the semaphore:
/// ThreadSanitizer does not see a semaphore's signal order what the body wrote before the test
/// reads it, and reported a race on exactly that in a whole-suite run.
package func finishes(
  within seconds: Double,
  _ body: @escaping @Sendable () -> Void
) async -> Bool {
  let done = DispatchSemaphore(value: 0)
  let ended = Ended()
  Thread.detachNewThread {
    body()
    ended.mark()
    done.signal()
  }
  return await withCheckedContinuation { continuation in
    Thread.detachNewThread {
      let inTime = done.wait(timeout: .now() + seconds) == .success
      continuation.resume(returning: inTime && ended.isMarked)
    }
  }
}

/// Whether a body ended, under a pthread-backed lock that ThreadSanitizer sees.
///
/// `@unchecked Sendable`: `marked` is only touched with `lock` held.
private final class Ended: @unchecked Sendable {
  private let lock = NSLock()
  private var marked = false

  func mark() { lock.withLock { marked = true } }
  var isMarked: Bool { lock.withLock { marked } }
}
