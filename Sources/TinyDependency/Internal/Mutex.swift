#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#else
  #error("TinyDependency needs pthreads: Darwin, Glibc, Musl or Bionic.")
#endif

/// A pthread mutex with a condition variable, for the container's short critical sections.
///
/// `Synchronization.Mutex` needs macOS 15 / iOS 18, and ThreadSanitizer on Linux reports false
/// races on it, so the library keeps this small wrapper. It is never held while user code runs.
///
/// `@unchecked Sendable`: the pthread objects live at a stable heap address for the lifetime of
/// the instance, and pthreads make every operation on them thread-safe.
final class ConditionMutex: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let condition: UnsafeMutablePointer<pthread_cond_t>

  init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    condition = .allocate(capacity: 1)
    condition.initialize(to: pthread_cond_t())
    precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
    precondition(pthread_cond_init(condition, nil) == 0, "pthread_cond_init failed")
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deinitialize(count: 1)
    condition.deallocate()
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  @inline(__always)
  func lock() {
    pthread_mutex_lock(mutex)
  }

  @inline(__always)
  func unlock() {
    pthread_mutex_unlock(mutex)
  }

  /// Runs `body` with the mutex held. `body` must not call user code.
  @inline(__always)
  func withLock<R>(_ body: () throws -> R) rethrows -> R {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }

  /// Releases the mutex until another thread calls ``broadcast()``, then takes it again.
  ///
  /// Call with the mutex held, in a loop that re-checks the awaited state.
  func wait() {
    pthread_cond_wait(condition, mutex)
  }

  /// As ``wait()``, but gives up after `seconds`; returns false on a time-out.
  func wait(seconds: Double) -> Bool {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    let nanoseconds = Int(now.tv_nsec) + Int(seconds.truncatingRemainder(dividingBy: 1) * 1e9)
    var deadline = timespec()
    deadline.tv_sec = now.tv_sec + Int(seconds) + nanoseconds / 1_000_000_000
    deadline.tv_nsec = nanoseconds % 1_000_000_000
    return pthread_cond_timedwait(condition, mutex, &deadline) == 0
  }

  /// Wakes every thread blocked in ``wait()``. Call with the mutex held.
  func broadcast() {
    pthread_cond_broadcast(condition)
  }
}

/// Process-level helpers that the core needs without Foundation.
enum SystemInterface {
  /// An identifier of the calling thread, equal for two calls only on the same live thread.
  static func currentThread() -> UInt {
    #if canImport(Darwin)
      UInt(bitPattern: pthread_self())
    #else
      UInt(pthread_self())
    #endif
  }

  /// Returns the raw bytes of an environment variable, or nil when it is unset.
  static func environmentBytes(_ name: String) -> [UInt8]? {
    guard let pointer = getenv(name) else { return nil }
    let length = strlen(pointer)
    return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
      Array(UnsafeBufferPointer(start: $0, count: length))
    }
  }

  /// Writes a line to standard error in one `write` call, so lines from threads don't interleave.
  static func writeToStandardError(_ message: String) {
    var line = message
    if !line.hasSuffix("\n") { line += "\n" }
    let utf8 = Array(line.utf8)
    var offset = 0
    while offset < utf8.count {
      let written = utf8.withUnsafeBytes { buffer in
        write(2, buffer.baseAddress! + offset, buffer.count - offset)
      }
      if written <= 0 { return }
      offset += written
    }
  }
}

/// A plain lock for short critical sections that never wait: `os_unfair_lock` on Apple
/// platforms, a pthread mutex elsewhere.
///
/// `@unchecked Sendable`: the lock lives at a stable heap address for the lifetime of the
/// instance, and the platform makes every operation on it thread-safe.
final class Lock: @unchecked Sendable {
  #if canImport(Darwin)
    private let pointer: UnsafeMutablePointer<os_unfair_lock>
  #else
    private let pointer: UnsafeMutablePointer<pthread_mutex_t>
  #endif

  init() {
    pointer = .allocate(capacity: 1)
    #if canImport(Darwin)
      pointer.initialize(to: os_unfair_lock())
    #else
      pointer.initialize(to: pthread_mutex_t())
      precondition(pthread_mutex_init(pointer, nil) == 0, "pthread_mutex_init failed")
    #endif
  }

  deinit {
    #if !canImport(Darwin)
      pthread_mutex_destroy(pointer)
    #endif
    pointer.deinitialize(count: 1)
    pointer.deallocate()
  }

  /// Runs `body` with the lock held. `body` must not call user code.
  @inline(__always)
  func withLock<R>(_ body: () throws -> R) rethrows -> R {
    #if canImport(Darwin)
      os_unfair_lock_lock(pointer)
      defer { os_unfair_lock_unlock(pointer) }
    #else
      pthread_mutex_lock(pointer)
      defer { pthread_mutex_unlock(pointer) }
    #endif
    return try body()
  }
}
