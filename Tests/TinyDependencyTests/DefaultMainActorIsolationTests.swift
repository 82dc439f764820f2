import Foundation
import TestSubprocess
import Testing

/// Builds Tests/Fixtures/MainActorApp, a consumer package whose targets default to main-actor
/// isolation with approachable concurrency, as new app targets do.
///
/// `.ci/run` relies on this suite for the fixture's warning-free build.
@Suite("A main-actor-by-default consumer", .serialized)
struct DefaultMainActorIsolationTests {
  static let fixture = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/MainActorApp")
  static let scratch = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent(".build/fixtures/MainActorApp")

  /// Builds one target of the fixture with `swift build`, warnings as errors.
  static func build(target: String) async throws -> SubprocessResult {
    // SwiftPM keeps its build plan while the fixture's own manifest and sources stay the same,
    // so a file added to the root package would be missed: drop the plan, keep the objects.
    try? FileManager.default.removeItem(at: scratch.appendingPathComponent("debug.yaml"))
    return try await run(
      URL(fileURLWithPath: "/usr/bin/env"),
      arguments: [
        "swift", "build", "--package-path", fixture.path, "--scratch-path", scratch.path,
        "--target", target, "-Xswiftc", "-warnings-as-errors",
      ]
    )
  }

  #if compiler(>=6.2)
    @Test func appTargetBuildsWithoutWarnings() async throws {
      let result = try await Self.build(target: "App")
      #expect(
        result.status == 0,
        "swift build failed:\n\(result.standardOutput)\n\(result.standardError)"
      )
      #expect(!result.standardOutput.contains("warning:"), "\(result.standardOutput)")
    }

    /// The compiler errors the README and the DocC article quote, each still the one a user
    /// sees for the mistake they describe.
    @Test func documentedMistakesGiveTheQuotedErrors() async throws {
      let result = try await Self.build(target: "Mistakes")
      #expect(result.status != 0)
      let output = result.standardOutput + result.standardError
      for (line, error) in [
        (26, "cannot form key path to main actor-isolated property 'logger'"),
        (
          31,
          "main actor-isolated property 'logger' can not be referenced from a nonisolated context"
        ),
        (36, "main actor-isolated property 'logger' can not be mutated from a nonisolated context"),
        (42, "main actor-isolated default value in a actor-isolated context"),
        (
          47,
          "call to main actor-isolated instance method 'log' in a synchronous actor-isolated context"
        ),
        (
          68,
          "main actor-isolated subscript 'subscript(_:)' can not be referenced from a nonisolated context"
        ),
        (
          78,
          "call to main actor-isolated initializer 'init()' in a synchronous nonisolated context"
        ),
        (
          87,
          "call to main actor-isolated initializer 'init(tenant:)' in a synchronous nonisolated context"
        ),
      ] {
        #expect(output.contains("Mistakes.swift:\(line):"), "no error on line \(line)")
        #expect(output.contains("error: \(error)"), "\(error)\n\(output)")
      }
      // Reading a key itself off the main actor is not among them: keys are SendableMetatype.
      #expect(!output.contains("conformance of"), "\(output)")
    }
  #endif
}
