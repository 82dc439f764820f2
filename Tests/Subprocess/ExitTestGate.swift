import Foundation

/// A gate that lets one task through at a time; the others await their turn, in order, without
/// blocking a thread.
///
/// `@unchecked Sendable`: `isHeld` and `waiting` are only touched with `lock` held.
final class ExitTestGate: @unchecked Sendable {
  /// The gate of the process, shared by every test target.
  static let shared = ExitTestGate()

  private let lock = NSLock()
  private var isHeld = false
  private var waiting: [CheckedContinuation<Void, Never>] = []

  /// Returns once the calling task holds the gate.
  func enter() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      lock.lock()
      if isHeld {
        waiting.append(continuation)
        lock.unlock()
      } else {
        isHeld = true
        lock.unlock()
        continuation.resume()
      }
    }
  }

  /// Hands the gate to the next task waiting, or opens it.
  func leave() {
    lock.lock()
    let next = waiting.isEmpty ? nil : waiting.removeFirst()
    if next == nil { isHeld = false }
    lock.unlock()
    next?.resume()
  }
}
