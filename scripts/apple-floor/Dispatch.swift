// Type-checking stand-in for scripts/typecheck-apple-floor.sh: the Dispatch names the code uses
// (all macOS 10.10 or older).
public final class DispatchSpecificKey<T> { public init() {} }
public final class DispatchQueue: @unchecked Sendable {
  public static let main = DispatchQueue()
  public func setSpecific<T>(key: DispatchSpecificKey<T>, value: T?) {}
  public class func getSpecific<T>(key: DispatchSpecificKey<T>) -> T? { nil }
}
public struct DispatchTime: Sendable { public static func now() -> DispatchTime { DispatchTime() }; public var uptimeNanoseconds: UInt64 { 0 } }
