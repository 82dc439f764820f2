import Foundation

/// A task executor that runs each job on a thread of its own, outside the concurrency pool.
///
/// While an exit test's child process runs, Swift Testing reads the child's pipes (the event
/// channel, and standard error or output when observed) with blocking reads, in child tasks of
/// the test's task. Under this executor's preference those tasks inherit it, so their blocking
/// reads hold threads of their own and the pool's threads stay free for every other test.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
final class ThreadPerJobExecutor: TaskExecutor {
  /// The executor of the process, shared by every test target.
  static let shared = ThreadPerJobExecutor()

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    Thread.detachNewThread { job.runSynchronously(on: executor) }
  }
}

/// Runs `body` with its tasks, and the child tasks they make, preferring threads of their own
/// to the concurrency pool's, where the system has task executors.
package func awayFromThePool<T>(
  _ body: () async throws -> T
) async rethrows -> T {
  if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) {
    return try await withTaskExecutorPreference(ThreadPerJobExecutor.shared, operation: body)
  }
  return try await body()
}
