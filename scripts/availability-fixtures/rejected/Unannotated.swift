// Uses that scripts/check-availability.sh must report: each line marked "rejected" below, and no
// other. Not compiled; scripts/test-check-availability.sh runs the check on it.

extension Clock {  // rejected: Clock is macOS 13, the package's minimum macOS 10.15
  func tick() {}
}

func wait() async throws {
  try await Task.sleep(for: .seconds(1))  // rejected: sleep(for:)
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct Counter {
  let count = Mutex(0)  // rejected: Mutex is macOS 15
  let clock = ContinuousClock()
}

@available(macOS 13, iOS 16, *)
func measure() -> Duration { .zero }  // rejected: no tvOS or watchOS version

#if compiler(>=6.2)
  @Test func stops() async {
    await #expect(processExitsWith: .failure) { fatalError() }  // rejected: no os guard
  }
#endif

func record() {
  #if compiler(>=6.2)
    Issue.record("late", severity: .warning)  // rejected: severity is Swift 6.3
  #endif
}

public typealias Metatype = SendableMetatype  // rejected: Swift 6.2

func mangled(_ type: Any.Type) -> String? {
  _mangledTypeName(type)  // rejected: macOS 11, above the package's minimum macOS 10.15
}

func firstMatch(in text: String) -> Range<String.Index>? {
  text.firstRange(of: "ab")  // rejected: string processing is macOS 13
}
