import Foundation

/// A value guarded by a lock; `Synchronization.Mutex` needs newer Apple systems than the package.
///
/// `@unchecked Sendable`: `value` is only touched with `lock` held, in `withLock`, whose bodies
/// never run user code.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` on the value with the lock held; `body` must not call out to user code.
  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
