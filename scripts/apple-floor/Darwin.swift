// swift-format-ignore-file
// (a stand-in of names another module declares, or a fixture that must fail a check: not this project's API)
// Type-checking stand-in for scripts/typecheck-apple-floor.sh: the Darwin names the code uses
// (all macOS 10.12 or older).
public struct pthread_mutex_t { public init() {} }
public struct pthread_cond_t { public init() {} }
public struct pthread_attr_t { public init() {} }
public struct _opaque_pthread_t {}
public typealias pthread_t = UnsafeMutablePointer<_opaque_pthread_t>
public typealias pthread_key_t = UInt
public struct pthread_mutexattr_t { public init() {} }
public struct pthread_condattr_t {}
public struct timespec { public var tv_sec: Int; public var tv_nsec: Int; public init() { tv_sec = 0; tv_nsec = 0 }; public init(tv_sec: Int, tv_nsec: Int) { self.tv_sec = tv_sec; self.tv_nsec = tv_nsec } }
public struct clockid_t: Equatable { public init(_ v: UInt32) {} }
public let CLOCK_MONOTONIC = clockid_t(6)
public var ETIMEDOUT: Int32 { 60 }
// Darwin's takes `UnsafePointer<pthread_mutexattr_t>!`, to which a mutable pointer converts; the
// conversion is an intrinsic this type-check-only setup lacks.
public func pthread_mutex_init(_ m: UnsafeMutablePointer<pthread_mutex_t>!, _ a: UnsafeMutablePointer<pthread_mutexattr_t>!) -> Int32 { 0 }
public func pthread_mutex_destroy(_ m: UnsafeMutablePointer<pthread_mutex_t>!) -> Int32 { 0 }
public func pthread_mutex_lock(_ m: UnsafeMutablePointer<pthread_mutex_t>!) -> Int32 { 0 }
public func pthread_mutex_unlock(_ m: UnsafeMutablePointer<pthread_mutex_t>!) -> Int32 { 0 }
public func pthread_cond_init(_ c: UnsafeMutablePointer<pthread_cond_t>!, _ a: UnsafePointer<pthread_condattr_t>!) -> Int32 { 0 }
public func pthread_cond_destroy(_ c: UnsafeMutablePointer<pthread_cond_t>!) -> Int32 { 0 }
public func pthread_cond_broadcast(_ c: UnsafeMutablePointer<pthread_cond_t>!) -> Int32 { 0 }
public func pthread_cond_timedwait_relative_np(_ c: UnsafeMutablePointer<pthread_cond_t>!, _ m: UnsafeMutablePointer<pthread_mutex_t>!, _ t: inout timespec) -> Int32 { 0 }
public func pthread_self() -> pthread_t { fatalError() }
public func pthread_get_stacksize_np(_ t: pthread_t) -> Int { 0 }
public func pthread_get_stackaddr_np(_ t: pthread_t) -> UnsafeMutableRawPointer { fatalError() }
public func pthread_key_create(_ k: inout pthread_key_t, _ d: (@convention(c) (UnsafeMutableRawPointer) -> Void)!) -> Int32 { 0 }
public func pthread_getspecific(_ k: pthread_key_t) -> UnsafeMutableRawPointer? { nil }
public func pthread_setspecific(_ k: pthread_key_t, _ v: UnsafeRawPointer?) -> Int32 { 0 }
public func sched_yield() -> Int32 { 0 }
public func clock_gettime(_ c: clockid_t, _ t: inout timespec) -> Int32 { 0 }
public func getenv(_ n: String) -> UnsafePointer<CChar>? { nil }
public func strlen(_ s: UnsafePointer<CChar>) -> Int { 0 }
public func write(_ fd: Int32, _ b: UnsafeRawPointer!, _ n: Int) -> Int { 0 }
public func dlsym(_ h: UnsafeMutableRawPointer?, _ s: String) -> UnsafeMutableRawPointer? { nil }
public struct os_unfair_lock { public init() {} }
public typealias os_unfair_lock_t = UnsafeMutablePointer<os_unfair_lock>
public func os_unfair_lock_lock(_ l: os_unfair_lock_t) {}
public func os_unfair_lock_unlock(_ l: os_unfair_lock_t) {}
public func os_unfair_lock_trylock(_ l: os_unfair_lock_t) -> Bool { true }
public func pthread_create(_ t: inout pthread_t?, _ a: UnsafePointer<pthread_attr_t>!, _ f: @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?, _ arg: UnsafeMutableRawPointer?) -> Int32 { 0 }
public func pthread_detach(_ t: pthread_t) -> Int32 { 0 }
public func sleep(_ s: UInt32) -> UInt32 { 0 }
public func pthread_mutexattr_init(_ a: UnsafeMutablePointer<pthread_mutexattr_t>!) -> Int32 { 0 }
public func pthread_mutexattr_destroy(_ a: UnsafeMutablePointer<pthread_mutexattr_t>!) -> Int32 { 0 }
public func pthread_mutexattr_settype(_ a: UnsafeMutablePointer<pthread_mutexattr_t>!, _ t: Int32) -> Int32 { 0 }
public var PTHREAD_MUTEX_RECURSIVE: Int32 { 2 }
public func pthread_exit(_ value: UnsafeMutableRawPointer?) -> Never { fatalError() }
