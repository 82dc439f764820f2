package import Testing

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// A trait for tests that run an exit test: each runs on threads of its own, off the
/// concurrency pool, and such tests run one at a time in the process.
///
/// While an exit test's child process runs, Swift Testing reads its pipes (the event channel,
/// and standard output and error when observed) with blocking reads in child tasks of the test.
/// On the concurrency pool (one thread per core) two such reads hold every thread of a
/// two-core machine for as long as the child runs (a child under ThreadSanitizer, or one that
/// waits for a report delay, runs for seconds), and the async tests beside it miss their
/// deadlines. With this trait the test's tasks, and the child tasks Swift Testing makes in them,
/// prefer an executor that runs each job on a thread of its own. One at a time, the children
/// don't crowd out the rest of the suite for the machine's cores and memory.
package struct OneExitTestAtATime: TestTrait, TestScoping {
  package func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    await ExitTestGate.shared.enter()
    defer { ExitTestGate.shared.leave() }
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { try await function() }
    } else {
      try await function()
    }
  }
}

extension Trait where Self == OneExitTestAtATime {
  /// Runs the test off the concurrency pool, while no other test with this trait runs.
  package static var oneExitTestAtATime: Self { Self() }
}

/// A task executor that runs each job on a new thread: a job that blocks holds only its own.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class ThreadPerJobExecutor: TaskExecutor {
  /// The executor of the process.
  static let shared = ThreadPerJobExecutor()

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    startThread { job.runSynchronously(on: executor) }
  }
}

/// Starts `body` on a new detached thread.
private func startThread(_ body: @escaping @Sendable () -> Void) {
  final class Box: @unchecked Sendable {
    // `@unchecked Sendable`: set before the thread starts, then only read by it.
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
  let context = Unmanaged.passRetained(Box(body)).toOpaque()
  #if canImport(Darwin)
    var thread: pthread_t?
  #else
    var thread = pthread_t()
  #endif
  let status = pthread_create(
    &thread,
    nil,
    { raw in
      #if canImport(Darwin)
        Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
      #else
        Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
      #endif
      return nil
    },
    context
  )
  precondition(status == 0, "pthread_create: \(status)")
  #if canImport(Darwin)
    pthread_detach(thread!)
  #else
    pthread_detach(thread)
  #endif
}
