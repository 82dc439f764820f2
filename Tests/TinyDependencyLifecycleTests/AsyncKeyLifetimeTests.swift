import TestSubprocess
import Testing
import TinyDependency
import TinyDependencyLifecycle

/// An async key's value is made once per container, by `prepare`: a key that declares another
/// lifetime is a programmer error, stopped where it is prepared or read with what to change.
@Suite("An async key declared transient or input stops with its name and the fix")
struct AsyncKeyLifetimeTests {
  #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test(.oneExitTestAtATime)
    func preparingATransientAsyncKeyStops() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        try await DependencyValues(context: .default).prepare([TransientTokenKey.self])
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("TransientTokenKey is an async key declared transient"))
      #expect(message.contains("remove its `lifetime`"))
    }

    @Test(.oneExitTestAtATime)
    func readingATransientAsyncKeyNamesItsLifetimeNotAMissingPrepare() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        _ = DependencyValues(context: .default)[TransientTokenKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("TransientTokenKey is an async key declared transient"))
      #expect(!message.contains("was not prepared"))
    }

    @Test(.oneExitTestAtATime)
    func preparingAnInputAsyncKeyStops() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        try await DependencyValues(context: .default).prepare([InputTokenKey.self])
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("InputTokenKey is an async key declared input"))
    }
  #endif

  /// The shared lifetime, the default, prepares and reads as always.
  @Test func aSharedAsyncKeyPreparesOnce() async throws {
    let values = DependencyValues(context: .default)
    try await values.prepare([SharedTokenKey.self])
    #expect(values[SharedTokenKey.self] == 7)
  }
}

enum TransientTokenKey: AsyncDependencyKey {
  static var lifetime: DependencyLifetime { .transient }
  static func makeDefault() async throws -> Int { 7 }
}

enum InputTokenKey: AsyncDependencyKey {
  static var lifetime: DependencyLifetime { .input }
  static func makeDefault() async throws -> Int { 7 }
}

enum SharedTokenKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Int { 7 }
}
