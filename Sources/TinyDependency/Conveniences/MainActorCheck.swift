import Dispatch

/// Whether the caller runs on the main actor, asked without stopping when it does not.
///
/// `MainActor.assumeIsolated` stops the process when it guesses wrong, and the main thread is
/// not the answer: on Linux, once the main thread hands the main queue over (`dispatchMain`),
/// main-actor jobs run on another thread. The main actor's executor is the main dispatch queue
/// on every platform this package supports, so the check asks Dispatch whether the current queue
/// is the main queue, by a specific value set on it once.
enum MainActorCheck {
  /// `@unchecked Sendable`: a specific key is an immutable handle that Dispatch only compares
  /// (some SDKs don't mark it `Sendable`).
  private struct Key: @unchecked Sendable {
    let key = DispatchSpecificKey<UInt8>()
  }

  private static let specific = Key()

  /// Sets the main queue's specific value, once.
  private static let marked: Bool = {
    DispatchQueue.main.setSpecific(key: specific.key, value: 1)
    return true
  }()

  /// Whether code running now may assume it is isolated to the main actor.
  static func isOnMainActor() -> Bool {
    guard marked else { return false }
    return DispatchQueue.getSpecific(key: specific.key) == 1
  }

  /// Runs `body`, which must be on the main actor: call only after ``isOnMainActor()`` said so.
  /// `MainActor.assumeIsolated` where the OS has it, else the same call without its check.
  static func run<T: Sendable>(_ body: @MainActor () -> T) -> T {
    if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
      return MainActor.assumeIsolated(body)
    }
    // The caller checked that this runs on the main thread. A synchronous function's global-actor
    // isolation is a rule of the type checker, not of the calling convention: a main-actor
    // function and a plain one are called alike, so the cast only drops the check already made.
    return withoutActuallyEscaping(body) { body in
      unsafeBitCast(body, to: (() -> T).self)()
    }
  }
}
