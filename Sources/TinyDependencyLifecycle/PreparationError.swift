/// Why preparing an async key failed, with the path of keys that led to it.
///
/// The path starts at the key that was being prepared and ends at the one whose build failed:
///
/// ```swift
/// do {
///   try await values.prepare([UserServiceKey.self])
/// } catch let error as PreparationError {
///   print(error)  // "UserServiceKey -> PoolKey: connection refused"
/// }
/// ```
///
/// A failure is not kept: a later prepare of the same key builds it again.
public struct PreparationError: Error, Sendable, CustomStringConvertible {
  /// What went wrong with the last key of the path.
  public enum Reason: Sendable {
    /// The key's builder threw this error.
    case failed(any Error)
    /// The build did not finish within this many seconds (the `timeout` of the prepare that
    /// started it); it was cancelled.
    case timedOut(seconds: Double)
    /// The build was cancelled: every task waiting for it was, or the container shut down.
    case cancelled
    /// The container is shutting down or shut down, so nothing more is prepared in it.
    case shutDown
  }

  /// The names of the keys, from the one being prepared to the one that failed.
  public let path: [String]
  /// What went wrong with the last key of the path.
  public let reason: Reason

  /// The error the failing builder threw, if it threw one.
  public var underlyingError: (any Error)? {
    if case .failed(let error) = reason { return error }
    return nil
  }

  /// The path, then the reason: `UserServiceKey -> PoolKey: connection refused`.
  public var description: String {
    let keys = path.joined(separator: " -> ")
    let last = path.last ?? "?"
    switch reason {
    case .failed(let error):
      return "\(keys): \(error)"
    case .timedOut(let seconds):
      return "\(keys): \(last) did not finish preparing within \(seconds) seconds (the timeout "
        + "of `prepare`), so it was cancelled. Make its build finish sooner, or pass a longer "
        + "`timeout:` to `prepare`."
    case .cancelled:
      return "\(keys): cancelled before \(last) finished preparing"
    case .shutDown:
      return "\(keys): the container was shut down, so \(last) is not prepared in it any more"
    }
  }

  init(path: [String], reason: Reason) {
    self.path = path
    self.reason = reason
  }

  /// `error`, thrown by the builder of `key`, as a failure whose path starts at `key`.
  static func wrapping(_ error: any Error, from key: AsyncKeyType) -> PreparationError {
    if let inner = error as? PreparationError {
      return PreparationError(path: [key.name] + inner.path, reason: inner.reason)
    }
    if error is CancellationError {
      return PreparationError(path: [key.name], reason: .cancelled)
    }
    return PreparationError(path: [key.name], reason: .failed(error))
  }
}
