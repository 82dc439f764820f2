import Foundation
import Testing
import TinyDependency
import TinyDependencyBuiltins
import TinyDependencyConcurrency
import TinyDependencyTesting

// Written the way swift-dependencies 1.16's "Designing dependencies" and "Registering
// dependencies" articles write their clients, with only the imports and `liveValue` changed.
// AUDIT.md maps each of their code blocks to a test here.

// Designing, block 1: a protocol interface (`Sendable`, as Swift 6 requires of a key's value).
protocol SoundPlayer: Sendable {
  func loop(url: URL) async throws
  func play(url: URL) async throws
  func setVolume(_ volume: Float) async
  func stop() async
}

// Designing, block 2: live, mock and unimplemented conformances.
struct LiveSoundPlayer: SoundPlayer {
  func loop(url: URL) async throws {}
  func play(url: URL) async throws {}
  func setVolume(_ volume: Float) async {}
  func stop() async {}
}
struct MockSoundPlayer: SoundPlayer {
  func loop(url: URL) async throws {}
  func play(url: URL) async throws {}
  func setVolume(_ volume: Float) async {}
  func stop() async {}
}
struct UnimplementedSoundPlayer: SoundPlayer {
  func loop(url: URL) async throws {
    reportIssue("SoundPlayer.loop is unimplemented")
  }
  func play(url: URL) async throws {
    reportIssue("SoundPlayer.play is unimplemented")
  }
  func setVolume(_ volume: Float) async {
    reportIssue("SoundPlayer.setVolume is unimplemented")
  }
  func stop() async {
    reportIssue("SoundPlayer.stop is unimplemented")
  }
}

// Designing, block 3: a private key whose values are existentials.
private enum SoundPlayerKey: DependencyKey {
  static let defaultValue: any SoundPlayer = LiveSoundPlayer()
  static let previewValue: any SoundPlayer = MockSoundPlayer()
  static let testValue: any SoundPlayer = UnimplementedSoundPlayer()
}

extension DependencyValues {
  fileprivate var soundPlayer: any SoundPlayer {
    get { self[SoundPlayerKey.self] }
    set { self[SoundPlayerKey.self] = newValue }
  }
}

// Designing, block 4: a struct of closures.
struct SoundPlayerClient: Sendable {
  var loop: @Sendable (_ url: URL) async throws -> Void
  var play: @Sendable (_ url: URL) async throws -> Void
  var setVolume: @Sendable (_ volume: Float) async -> Void
  var stop: @Sendable () async -> Void
}

// Designing, block 5: values as static members (on a second client of the same shape: in the
// article this step comes before block 6 and is replaced by it, as a static `unimplemented`
// member would hide the global function inside the type).
struct SoundEngineClient: Sendable {
  var loop: @Sendable (_ url: URL) async throws -> Void
  var play: @Sendable (_ url: URL) async throws -> Void
  var setVolume: @Sendable (_ volume: Float) async -> Void
  var stop: @Sendable () async -> Void
}

extension SoundEngineClient {
  static var live: Self {
    Self(loop: { _ in }, play: { _ in }, setVolume: { _ in }, stop: {})
  }

  static let mock = Self(loop: { _ in }, play: { _ in }, setVolume: { _ in }, stop: {})

  static let unimplemented = Self(
    loop: { _ in reportIssue("SoundEngineClient.loop is unimplemented") },
    play: { _ in reportIssue("SoundEngineClient.play is unimplemented") },
    setVolume: { _ in reportIssue("SoundEngineClient.setVolume is unimplemented") },
    stop: { reportIssue("SoundEngineClient.stop is unimplemented") }
  )
}

// Designing, block 6: the client is its own key; the test value is unimplemented endpoints.
extension SoundPlayerClient: DependencyKey {
  static var defaultValue: Self {
    Self(loop: { _ in }, play: { _ in }, setVolume: { _ in }, stop: {})
  }

  static let previewValue = Self(loop: { _ in }, play: { _ in }, setVolume: { _ in }, stop: {})

  static let testValue = Self(
    loop: unimplemented("SoundPlayerClient.loop"),
    play: unimplemented("SoundPlayerClient.play"),
    setVolume: unimplemented("SoundPlayerClient.setVolume"),
    stop: unimplemented("SoundPlayerClient.stop")
  )
}

extension DependencyValues {
  var soundPlayerClient: SoundPlayerClient {
    get { self[SoundPlayerClient.self] }
    set { self[SoundPlayerClient.self] = newValue }
  }
}

// Designing, block 7: a model reads one endpoint by key path.
final class JukeboxModel {
  @Dependency(\.soundPlayerClient.play) var play

  func playTapped() async throws {
    try await play(URL(string: "file:///tmp/song.m4a")!)
  }
}

@Suite("swift-dependencies' Designing dependencies article compiles and runs here")
struct AuditDesigningTests {
  @Test func aProtocolKeyGivesTheUnimplementedConformanceInTests() async throws {
    @Dependency(\.soundPlayer) var player
    try await withKnownIssue {
      try await player.loop(url: URL(string: "file:///tmp/a.m4a")!)
    } matching: {
      mentions($0, "SoundPlayer.loop is unimplemented")
    }
    let live = withDependencies {
      $0.context = .live
    } operation: {
      player
    }
    #expect(live is LiveSoundPlayer)
  }

  @Test func theStaticUnimplementedValueReportsWhatIsCalled() async {
    await withKnownIssue {
      await SoundEngineClient.unimplemented.stop()
    } matching: {
      mentions($0, "SoundEngineClient.stop is unimplemented")
    }
    #expect(type(of: SoundEngineClient.live) == SoundEngineClient.self)
  }

  @Test func theTestValuesEndpointsAreUnimplemented() async {
    @Dependency(\.soundPlayerClient) var client
    await withKnownIssue {
      await client.setVolume(0.5)
    } matching: {
      mentions($0, "SoundPlayerClient.setVolume")
    }
  }

  // Designing, block 8 (XCTest there): an endpoint overridden to record into an ActorIsolated.
  @Test func feature() async throws {
    let isPlaying = ActorIsolated(false)

    let model = withDependencies {
      $0.soundPlayerClient.play = { _ in await isPlaying.setValue(true) }
    } operation: {
      JukeboxModel()
    }

    try await model.playTapped()
    #expect(await isPlaying.value == true)
  }

  // Designing, block 10: calling an endpoint with a file URL.
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  @Test func callingAnEndpoint() async throws {
    let played = LockIsolated<[String]>([])
    let player = withDependencies {
      $0.soundPlayerClient.play = { url in played.withValue { $0.append(url.lastPathComponent) } }
    } operation: {
      JukeboxModel()
    }
    try await player.play(URL(filePath: "/music/track.m4a"))
    #expect(played.value == ["track.m4a"])
  }
}
