/// State that is only reachable with its lock held, shaped like `Synchronization.Mutex`.
///
/// The state and the lock share one allocation. ``withLock(_:)`` gives the state as `inout`, so
/// the compiler enforces what a comment could only claim. Threads can wait for the state to
/// change (``wait(while:timeout:)``), woken by ``broadcast()``. User code never runs inside
/// `withLock`: callers decide under the lock, then act after it is released.
///
/// `@unchecked Sendable`: the state is only touched with the lock held.
package struct Locked<State>: @unchecked Sendable {
  private final class Buffer: ManagedBuffer<State, LockPrimitives> {
    // The header (the state) is destroyed by `ManagedBuffer` itself; the element is ours.
    deinit {
      withUnsafeMutablePointerToElements { LockPrimitives.destroy($0) }
    }
  }

  private let buffer: ManagedBuffer<State, LockPrimitives>

  /// Creates the state behind a lock; a `recursive` one may be taken again by the thread that
  /// holds it (see ``holding(_:)``).
  package init(_ initial: State, recursive: Bool = false) {
    buffer = Buffer.create(minimumCapacity: 1) { _ in initial }
    buffer.withUnsafeMutablePointerToElements {
      LockPrimitives.initialize($0, recursive: recursive)
    }
  }

  /// Shares the lock and state of `reference`, a value of ``retainedReference()``, without
  /// taking over its retain.
  init(unretained reference: UnsafeRawPointer) {
    buffer = Unmanaged<ManagedBuffer<State, LockPrimitives>>.fromOpaque(reference)
      .takeUnretainedValue()
  }

  /// The lock and state as one retained pointer, for ``LazyLocked`` to publish atomically.
  func retainedReference() -> UnsafeMutableRawPointer {
    Unmanaged.passRetained(buffer).toOpaque()
  }

  /// Gives up the retain of a pointer made by ``retainedReference()``.
  static func release(_ reference: UnsafeRawPointer) {
    Unmanaged<ManagedBuffer<State, LockPrimitives>>.fromOpaque(reference).release()
  }

  /// Runs `body` with the lock held and the state borrowed mutably.
  @inline(__always)
  package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
    try buffer.withUnsafeMutablePointers { state, primitives in
      LockPrimitives.lock(primitives)
      defer { LockPrimitives.unlock(primitives) }
      return try body(&state.pointee)
    }
  }

  /// Runs `body` with the lock held and no access to the state open, so that `body` may call
  /// ``withLock(_:)`` of a recursive lock, each call an access of its own.
  package func holding<R>(_ body: () throws -> R) rethrows -> R {
    try buffer.withUnsafeMutablePointerToElements { primitives in
      LockPrimitives.lock(primitives)
      defer { LockPrimitives.unlock(primitives) }
      return try body()
    }
  }

  /// Blocks while `predicate` holds for the state, for at most `timeout` seconds.
  ///
  /// - Returns: True when the predicate stopped holding, false on a time-out.
  package func wait(while predicate: (borrowing State) -> Bool, timeout: Double) -> Bool {
    buffer.withUnsafeMutablePointers { state, primitives in
      LockPrimitives.lock(primitives)
      defer { LockPrimitives.unlock(primitives) }
      let deadline = SystemInterface.monotonicSeconds() + timeout
      while predicate(state.pointee) {
        let remaining = deadline - SystemInterface.monotonicSeconds()
        if remaining <= 0 { return false }
        _ = LockPrimitives.wait(primitives, seconds: remaining)
      }
      return true
    }
  }

  /// Wakes every thread in ``wait(while:timeout:)``, to check the state again. Call after the
  /// change was made under the lock.
  package func broadcast() {
    buffer.withUnsafeMutablePointerToElements { LockPrimitives.broadcast($0) }
  }
}
