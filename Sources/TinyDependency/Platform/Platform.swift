// Every call into the operating system lives in this file, behind `SystemInterface` and the
// lock primitives, so the platform import ladder is written once.
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

/// A pthread mutex and condition variable, kept at a stable address by their owner.
///
/// `Synchronization.Mutex` needs macOS 15 / iOS 18, and ThreadSanitizer on Linux reports false
/// races on it, so the library keeps these primitives (DESIGN.md, decision 11). Timed waits
/// measure time on a monotonic clock. Return codes are checked in debug builds (`assert`).
struct LockPrimitives {
  private var mutex = pthread_mutex_t()
  private var condition = pthread_cond_t()

  // The pthread calls get plain pointers to the fields: an `inout` access (`&pointer.pointee.mutex`)
  // would be a Swift write that ThreadSanitizer reports as a race between two threads locking.
  @inline(__always)
  private static func mutex(
    _ pointer: UnsafeMutablePointer<LockPrimitives>
  ) -> UnsafeMutablePointer<pthread_mutex_t> {
    pointer.pointer(to: \.mutex)!
  }

  @inline(__always)
  private static func condition(
    _ pointer: UnsafeMutablePointer<LockPrimitives>
  ) -> UnsafeMutablePointer<pthread_cond_t> {
    pointer.pointer(to: \.condition)!
  }

  /// Initializes the primitives in place at `pointer`; a `recursive` mutex may be locked again
  /// by the thread that holds it.
  static func initialize(_ pointer: UnsafeMutablePointer<LockPrimitives>, recursive: Bool = false) {
    pointer.initialize(to: LockPrimitives())
    // The attributes in a buffer of their own: a pointer, never an `inout` conversion.
    withUnsafeTemporaryAllocation(of: pthread_mutexattr_t.self, capacity: 1) { buffer in
      let kind = buffer.baseAddress!
      checked(pthread_mutexattr_init(kind), "pthread_mutexattr_init")
      defer { checked(pthread_mutexattr_destroy(kind), "pthread_mutexattr_destroy") }
      if recursive {
        checked(
          pthread_mutexattr_settype(kind, Int32(PTHREAD_MUTEX_RECURSIVE)),
          "pthread_mutexattr_settype"
        )
      }
      checked(pthread_mutex_init(mutex(pointer), kind), "pthread_mutex_init")
    }
    #if canImport(Darwin)
      let conditionStatus = pthread_cond_init(condition(pointer), nil)
    #else
      var attributes = pthread_condattr_t()
      checked(pthread_condattr_init(&attributes), "pthread_condattr_init")
      checked(pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC), "pthread_condattr_setclock")
      let conditionStatus = pthread_cond_init(condition(pointer), &attributes)
      checked(pthread_condattr_destroy(&attributes), "pthread_condattr_destroy")
    #endif
    precondition(conditionStatus == 0, "pthread_cond_init failed: \(conditionStatus)")
  }

  /// Destroys the primitives at `pointer`; nothing may hold or wait on them.
  static func destroy(_ pointer: UnsafeMutablePointer<LockPrimitives>) {
    checked(pthread_cond_destroy(condition(pointer)), "pthread_cond_destroy")
    checked(pthread_mutex_destroy(mutex(pointer)), "pthread_mutex_destroy")
    pointer.deinitialize(count: 1)
  }

  @inline(__always)
  static func lock(_ pointer: UnsafeMutablePointer<LockPrimitives>) {
    checked(pthread_mutex_lock(mutex(pointer)), "pthread_mutex_lock")
  }

  @inline(__always)
  static func unlock(_ pointer: UnsafeMutablePointer<LockPrimitives>) {
    checked(pthread_mutex_unlock(mutex(pointer)), "pthread_mutex_unlock")
  }

  /// Releases the mutex until a broadcast or `seconds` pass, then takes it again; returns false
  /// on a time-out. Call with the mutex held.
  static func wait(_ pointer: UnsafeMutablePointer<LockPrimitives>, seconds: Double) -> Bool {
    let whole = Int(seconds)
    let nanoseconds = Int((seconds - Double(whole)) * 1e9)
    #if canImport(Darwin)
      var relative = timespec(tv_sec: whole, tv_nsec: nanoseconds)
      let status = pthread_cond_timedwait_relative_np(
        condition(pointer),
        mutex(pointer),
        &relative
      )
    #else
      var now = timespec()
      clock_gettime(CLOCK_MONOTONIC, &now)
      let total = Int(now.tv_nsec) + nanoseconds
      var deadline = timespec()
      deadline.tv_sec = now.tv_sec + whole + total / 1_000_000_000
      deadline.tv_nsec = total % 1_000_000_000
      let status = pthread_cond_timedwait(
        condition(pointer),
        mutex(pointer),
        &deadline
      )
    #endif
    if status != ETIMEDOUT { checked(status, "pthread_cond_timedwait") }
    return status == 0
  }

  /// Wakes every thread waiting on the condition.
  static func broadcast(_ pointer: UnsafeMutablePointer<LockPrimitives>) {
    checked(pthread_cond_broadcast(condition(pointer)), "pthread_cond_broadcast")
  }
}

/// Process-level helpers that the core needs without Foundation.
package enum SystemInterface {
  /// An identifier of the calling thread, equal for two calls only on the same live thread.
  static func currentThread() -> UInt {
    #if canImport(Darwin)
      UInt(bitPattern: pthread_self())
    #else
      UInt(pthread_self())
    #endif
  }

  /// Lets another thread run: a contended ``SpinLock`` waits this way.
  static func yieldThread() {
    sched_yield()
  }

  /// Seconds on a monotonic clock, for measuring waits.
  package static func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
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
  package static func writeToStandardError(_ message: String) {
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

  /// Whether an image loaded in this process defines `symbol`.
  static func isSymbolLoaded(_ symbol: String) -> Bool {
    // `RTLD_DEFAULT`: search every image loaded in the process.
    #if canImport(Darwin)
      dlsym(UnsafeMutableRawPointer(bitPattern: -2), symbol) != nil
    #else
      dlsym(nil, symbol) != nil
    #endif
  }

  /// The address below which the calling thread's stack counts as nearly used up, per thread;
  /// 1 where the platform does not tell the stack's bounds.
  private static let stackLimit = ThreadSlot()

  /// Whether less than a quarter of the calling thread's stack (at most 256 KiB) is left below
  /// the caller. The stack's bounds are asked once per thread.
  static func isStackNearlyExhausted() -> Bool {
    var marker: UInt8 = 0
    let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    var limit = UInt(bitPattern: stackLimit.value)
    if limit == 0 {
      if let (lowest, size) = stackBounds() {
        limit = lowest + UInt(min(size / 4, 256 << 10))
      } else {
        limit = 1
      }
      stackLimit.value = UnsafeMutableRawPointer(bitPattern: limit)
    }
    return here < limit
  }

  /// The lowest address and the size of the calling thread's stack, which grows down.
  private static func stackBounds() -> (lowest: UInt, size: Int)? {
    #if canImport(Darwin)
      let thread = pthread_self()
      let size = pthread_get_stacksize_np(thread)
      return (UInt(bitPattern: pthread_get_stackaddr_np(thread)) - UInt(size), size)
    #else
      // A GNU extension (Musl and Bionic have it too) that the Glibc module does not import.
      typealias GetAttributes =
        @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
      guard let symbol = dlsym(nil, "pthread_getattr_np") else { return nil }
      let getAttributes = unsafeBitCast(symbol, to: GetAttributes.self)
      return withUnsafeTemporaryAllocation(of: pthread_attr_t.self, capacity: 1) { buffer in
        guard let attributes = buffer.baseAddress,
          getAttributes(pthread_self(), attributes) == 0
        else { return nil }
        defer { pthread_attr_destroy(attributes) }
        var address: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(attributes, &address, &size) == 0, let address else {
          return nil
        }
        return (UInt(bitPattern: address), size)
      }
    #endif
  }

  /// A per-thread slot holding one unretained object pointer.
  struct ThreadSlot: @unchecked Sendable {
    // `@unchecked Sendable`: a pthread key is an immutable process-wide handle.
    private let key: pthread_key_t

    /// Creates a slot; with `releasingOnExit`, the slot holds a retained object, released when
    /// its thread exits.
    init(releasingOnExit: Bool = false) {
      var key = pthread_key_t()
      let status =
        releasingOnExit
        ? pthread_key_create(&key) { raw in
          #if canImport(Darwin)
            Unmanaged<AnyObject>.fromOpaque(raw).release()
          #else
            if let raw { Unmanaged<AnyObject>.fromOpaque(raw).release() }
          #endif
        }
        : pthread_key_create(&key, nil)
      precondition(status == 0, "pthread_key_create failed: \(status)")
      self.key = key
    }

    /// The calling thread's pointer, or nil.
    var value: UnsafeMutableRawPointer? {
      get { pthread_getspecific(key) }
      nonmutating set {
        checked(
          pthread_setspecific(key, newValue.map { UnsafeRawPointer($0) }),
          "pthread_setspecific"
        )
      }
    }
  }
}

/// Stops with the call's name when a pthread call fails: each failure here is a broken
/// invariant (a destroyed or foreign mutex, a lost key), never a condition to recover from.
@inline(__always)
func checked(_ status: Int32, _ call: StaticString) {
  if status != 0 { stopWithMessage("TinyDependency: \(call) failed with error \(status).") }
}

/// Stops the process with `message`, written to standard error first: `fatalError` alone may
/// not print it where the user looks. The one way the library stops on a programmer error.
package func stopWithMessage(_ message: String) -> Never {
  SystemInterface.writeToStandardError(message)
  fatalError(message)
}
