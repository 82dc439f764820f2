// Uses that scripts/check-availability.sh must accept. Not compiled;
// scripts/test-check-availability.sh runs the check on it. A comment may say Clock or Mutex.

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension Clock {
  func tick() async throws {
    try await sleep(for: .seconds(1))
  }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct Counter {
  let count = Mutex(0)

  func read() -> Duration { .zero }
}

func later() async throws {
  let message = "ContinuousClock and Mutex in a string"
  if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {
    try await Task.sleep(for: .milliseconds(1))
  }
  _ = message
}

func guarded() async throws {
  guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else { return }
  try await ContinuousClock().sleep(for: .seconds(1))
}

#if canImport(Darwin)
  import Darwin
#else
  import Synchronization

  let serial = Atomic<Int>(0)
#endif

#if compiler(>=6.2) && (os(macOS) || os(Linux))
  @Test func stops() async {
    await #expect(processExitsWith: .failure) { fatalError() }
  }
#endif

func record() {
  #if compiler(>=6.3)
    Issue.record("late", severity: .warning)
  #endif
}

func mangled(_ type: Any.Type) -> String {
  guard #available(macOS 11, iOS 14, tvOS 14, watchOS 7, *) else { return "" }
  return _mangledTypeName(type) ?? ""
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
func firstMatch(in text: String) -> Range<String.Index>? {
  text.firstRange(of: "ab")
}
