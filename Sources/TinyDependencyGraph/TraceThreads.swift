// The threads a trace runs on: the graph's only calls into the operating system.
import TinyDependency

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#endif

/// The tracing threads: started detached, and ended where a traced resolution cannot go on.
enum TraceThreads {
  /// Ends the calling thread, a tracing thread, for a traced resolution that cannot go on: no
  /// builder above it can return, and Swift cannot unwind them. The thread and its stack are
  /// released; what its frames held (the values being built) is not, and nothing waits on it:
  /// a trace reads each key in a container of its own.
  static func park() -> Never {
    // Only a thread this type started ends; any other (the main thread above all) waits for
    // good instead, as a thread that ended would take the process's runner with it.
    guard pthread_getspecific(tracingThreadKey) != nil else {
      while true { sleep(3_600) }
    }
    running.withLock { $0 -= 1 }
    pthread_exit(nil)
  }

  /// How many threads ``runOnNewThread(_:)`` started have not yet ended: each is counted out
  /// when its body returns or when it parks. What a test of parking reads, as the process's
  /// own thread count also moves with every test running beside it.
  static let running = Locked(0)

  /// Set on the threads ``runOnNewThread(_:)`` starts.
  fileprivate static let tracingThreadKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key, nil)
    precondition(status == 0, "TinyDependency: pthread_key_create failed: \(status)")
    return key
  }()

  /// Runs `body` on a new detached thread.
  static func runOnNewThread(_ body: @escaping @Sendable () -> Void) {
    /// `@unchecked Sendable`: set before the thread starts, then only read by it.
    final class Context: @unchecked Sendable {
      let body: @Sendable () -> Void
      init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let context = Unmanaged.passRetained(Context(body)).toOpaque()
    running.withLock { $0 += 1 }
    #if canImport(Darwin)
      var thread: pthread_t?
    #else
      var thread = pthread_t()
    #endif
    let result = pthread_create(
      &thread,
      nil,
      { raw in
        #if canImport(Darwin)
          let context = Unmanaged<Context>.fromOpaque(raw).takeRetainedValue()
        #else
          let context = Unmanaged<Context>.fromOpaque(raw!).takeRetainedValue()
        #endif
        _ = pthread_setspecific(TraceThreads.tracingThreadKey, UnsafeRawPointer(bitPattern: 1))
        context.body()
        TraceThreads.running.withLock { $0 -= 1 }
        return nil
      },
      context
    )
    precondition(
      result == 0,
      "TinyDependency: could not start a thread (pthread_create: \(result))"
    )
    #if canImport(Darwin)
      pthread_detach(thread!)
    #else
      pthread_detach(thread)
    #endif
  }
}
