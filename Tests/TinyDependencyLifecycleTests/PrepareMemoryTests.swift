import TestSubprocess
import Testing
import TinyDependency
import TinyDependencyLifecycle

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

@Suite("A prepare that returned holds no memory until its timeout's deadline")
struct PrepareMemoryTests {
  #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    /// Each prepare builds a quick key in a container of its own, with the default 30 s timeout,
    /// and returns at once: nothing of it should stay once it returned.
    @Test(.oneExitTestAtATime, .enabled(if: !runsUnderAddressSanitizer))
    func preparesThatReturnedLeaveMemoryFlat() async {
      await #expect(processExitsWith: .success) {
        func prepareMany(_ count: Int) async {
          for _ in 0..<count {
            let values = DependencyValues(context: .default)
            try! await values.prepare([QuickKey.self])
          }
        }
        await prepareMany(20_000)
        let before = peakResidentBytes()
        await prepareMany(40_000)
        let growth = peakResidentBytes() - before
        precondition(growth < 8 << 20, "grew by \(growth >> 20) MiB")
      }
    }
  #endif
}

/// A key whose build returns at once.
enum QuickKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Int { 1 }
}

/// The peak resident memory of this process, in bytes.
func peakResidentBytes() -> Int {
  var usage = rusage()
  #if canImport(Darwin)
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss)
  #else
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int(usage.ru_maxrss) * 1024
  #endif
}

/// Whether this process runs under AddressSanitizer, whose runtime defines `__asan_init`.
let runsUnderAddressSanitizer: Bool = {
  #if canImport(Darwin)
    dlsym(UnsafeMutableRawPointer(bitPattern: -2), "__asan_init") != nil
  #else
    dlsym(nil, "__asan_init") != nil
  #endif
}()
