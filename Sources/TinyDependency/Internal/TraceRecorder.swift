#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#endif

/// Collects what stops a traced resolution (a cycle, an unset input) instead of stopping the
/// process, for ``DependencyGraph/trace(_:context:configure:)``.
///
/// A resolution traced this way runs on a thread of its own. When it meets a cycle or an unset
/// input, there is no value to return and no way to unwind the builders above it, so the
/// recorder notes the problem, wakes the tracer and parks that thread for good. The parked
/// thread and the values it was building are never released: tracing is meant for test suites
/// and checks that run once.
///
/// `@unchecked Sendable`: all mutable state is guarded by `mutex`.
final class TraceRecorder: @unchecked Sendable {
  /// Whether a key's fallback to its live default is recorded and stops the resolution, so
  /// that no live value is built (validation).
  let stopsAtLiveFallbacks: Bool
  private let mutex = ConditionMutex()
  private var isDone = false
  /// Set once the trace's `configure` returned; the stall timeout counts from there.
  private var isConfigured = false
  private var cycles: [[any DependencyKey.Type]] = []
  private var missingInputs: [any DependencyKey.Type] = []
  private var builds: [(key: any DependencyKey.Type, reads: [any DependencyKey.Type])] = []
  private var fallbacks: [ObjectIdentifier: any DependencyKey.Type] = [:]

  init(stopsAtLiveFallbacks: Bool = false) {
    self.stopsAtLiveFallbacks = stopsAtLiveFallbacks
  }

  /// Records a finished build: what it read, and whether it used its default as a fallback.
  func recordBuild(
    of key: any DependencyKey.Type,
    reads: [any DependencyKey.Type],
    fellBack: Bool
  ) {
    mutex.withLock {
      builds.append((key, reads))
      if fellBack { fallbacks[ObjectIdentifier(key)] = key }
    }
  }

  /// Every build recorded so far, and the keys that fell back to their default value.
  var recordedBuilds:
    (
      builds: [(key: any DependencyKey.Type, reads: [any DependencyKey.Type])],
      fallbacks: [any DependencyKey.Type]
    )
  {
    mutex.withLock { (builds, Array(fallbacks.values)) }
  }

  /// Records a cycle, then parks the calling thread.
  func stop(cycle keys: [any DependencyKey.Type]) -> Never {
    mutex.withLock {
      cycles.append(keys)
      isDone = true
      mutex.broadcast()
    }
    Self.park()
  }

  /// Records that `key` was about to build its live default for want of a value for the
  /// context, then parks the calling thread before it does.
  func stop(liveFallback key: any DependencyKey.Type) -> Never {
    mutex.withLock {
      fallbacks[ObjectIdentifier(key)] = key
      isDone = true
      mutex.broadcast()
    }
    Self.park()
  }

  /// Records an input read while unset, then parks the calling thread.
  func stop(missingInput key: any DependencyKey.Type) -> Never {
    mutex.withLock {
      missingInputs.append(key)
      isDone = true
      mutex.broadcast()
    }
    Self.park()
  }

  /// Marks the trace's `configure` finished.
  func finishConfiguring() {
    mutex.withLock {
      isConfigured = true
      mutex.broadcast()
    }
  }

  /// Marks the traced resolution finished.
  func finish() {
    mutex.withLock {
      isDone = true
      mutex.broadcast()
    }
  }

  /// Waits until the resolution of `key` finished or stopped, or `timeout` seconds went by
  /// after `configure` returned; returns what stopped it, and whether it is still running.
  ///
  /// `configure` itself is waited for without a limit (it is the caller's code, and the caller
  /// must not go on while it runs), with a line on standard error every `timeout` seconds.
  func waitUntilDone(timeout: Double, key: any DependencyKey.Type) -> (
    cycles: [[any DependencyKey.Type]], missingInputs: [any DependencyKey.Type], stalled: Bool
  ) {
    mutex.lock()
    defer { mutex.unlock() }
    var waited = 0.0
    var waitedForConfigure = 0.0
    while !isDone && waited < timeout {
      guard !mutex.wait(seconds: 0.5) else { continue }
      if isConfigured {
        waited += 0.5
      } else {
        waitedForConfigure += 0.5
        if waitedForConfigure.truncatingRemainder(dividingBy: timeout) == 0 {
          SystemInterface.writeToStandardError(
            "TinyDependency: tracing \(_typeName(key, qualified: false)): `configure` has not "
              + "returned after \(Int(waitedForConfigure)) s; still waiting for it."
          )
        }
      }
    }
    return (cycles, missingInputs, !isDone)
  }

  private static func park() -> Never {
    while true { sleep(3_600) }
  }
}

extension SystemInterface {
  /// Runs `body` on a new detached thread.
  static func runOnNewThread(_ body: @escaping @Sendable () -> Void) {
    final class Context: @unchecked Sendable {
      // `@unchecked Sendable`: set before the thread starts, then only read by it.
      let body: @Sendable () -> Void
      init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let context = Unmanaged.passRetained(Context(body)).toOpaque()
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
        context.body()
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
