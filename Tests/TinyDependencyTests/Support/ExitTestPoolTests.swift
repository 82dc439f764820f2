import Foundation
import TestSubprocess
import Testing

/// The test suite's own guard: an exit test leaves the concurrency pool to the other tests.
///
/// Swift Testing reads an exit test's pipes with blocking reads in child tasks of the test; on
/// two cores, one exit test observing standard error held both pool threads while its child
/// ran, and tests beside it passed their deadlines (a `prepare` timing out after 30 seconds in
/// CI). The child here waits for a file that a task on the pool writes once the child runs.
@Suite("An exit test leaves the concurrency pool's threads to the other tests")
struct ExitTestPoolTests {
  #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test(.oneExitTestAtATime)
    func aTaskOnThePoolRunsWhileAnExitTestsChildRuns() async throws {
      let base = "/tmp/tinydependency-exit-test-pool-\(ProcessInfo.processInfo.processIdentifier)"
      defer {
        try? FileManager.default.removeItem(atPath: base + ".started")
        try? FileManager.default.removeItem(atPath: base + ".seen")
      }
      let writer = Task.detached {
        // A task of the pool: each sleep needs a free pool thread to resume.
        while !FileManager.default.fileExists(atPath: base + ".started") {
          try? await Task.sleep(nanoseconds: 10_000_000)
        }
        _ = FileManager.default.createFile(atPath: base + ".seen", contents: Data())
      }
      // Observing standard error is what held a second pool thread.
      _ = try await #require(processExitsWith: .success, observing: [\.standardErrorContent]) {
        let base = "/tmp/tinydependency-exit-test-pool-\(getppid())"
        _ = FileManager.default.createFile(atPath: base + ".started", contents: Data())
        for _ in 0..<200 {
          if FileManager.default.fileExists(atPath: base + ".seen") { exit(0) }
          usleep(50_000)
        }
        exit(1)  // No task of the pool ran for 10 seconds while this child ran.
      }
      await writer.value
    }
  #endif
}
