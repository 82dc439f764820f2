// swift-format-ignore-file
// (a stand-in of names another module declares, or a fixture that must fail a check: not this project's API)
// Type-checking stand-in for scripts/typecheck-apple-floor.sh: the Dispatch names the code uses
// (all macOS 10.10 or older).
public final class DispatchSpecificKey<T> { public init() {} }
public final class DispatchQueue: @unchecked Sendable {
  public static let main = DispatchQueue()
  public func setSpecific<T>(key: DispatchSpecificKey<T>, value: T?) {}
  public class func getSpecific<T>(key: DispatchSpecificKey<T>) -> T? { nil }
}
public struct DispatchTime: Sendable { public static func now() -> DispatchTime { DispatchTime() }; public var uptimeNanoseconds: UInt64 { 0 } }
public enum DispatchTimeoutResult: Sendable { case success, timedOut }
public final class DispatchSemaphore: @unchecked Sendable {
  public init(value: Int) {}
  public func signal() -> Int { 0 }
  public func wait() {}
  public func wait(timeout: DispatchTime) -> DispatchTimeoutResult { .success }
}
public enum DispatchTimeInterval: Sendable { case seconds(Int), milliseconds(Int), nanoseconds(Int) }
public func + (time: DispatchTime, interval: DispatchTimeInterval) -> DispatchTime { time }
