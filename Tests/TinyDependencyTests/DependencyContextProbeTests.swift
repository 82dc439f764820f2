import Foundation
import TestSubprocess
import Testing

@Suite("The DependencyContextProbe executable")
struct DependencyContextProbeTests {
  /// Runs the probe the way `swift run` would: not as a test runner.
  static func probe(_ value: String?) async throws -> SubprocessResult {
    try await run(
      builtProduct("DependencyContextProbe"),
      environment: [
        "TINY_DEPENDENCY_CONTEXT": value,
        "XCODE_RUNNING_FOR_PREVIEWS": nil,
        "XCTestConfigurationFilePath": nil,
        "XCTestBundlePath": nil,
        "XCTestSessionIdentifier": nil,
      ]
    )
  }

  @Test(arguments: [
    ("default", "default", "LiveGreeter"),
    ("live", "default", "LiveGreeter"),
    ("test", "test", "TestGreeter"),
    ("preview", "preview", "PreviewGreeter"),
    ("  PreView\n", "preview", "PreviewGreeter"),
    ("TEST", "test", "TestGreeter"),
  ])
  func variableSelectsTheContext(value: String, context: String, resolved: String) async throws {
    let result = try await Self.probe(value)
    #expect(result.status == 0)
    #expect(
      result.standardOutput == """
        context: \(context)
        chosen by: TINY_DEPENDENCY_CONTEXT
        ProbeKey resolved to: \(resolved)

        """
    )
    #expect(result.standardError.isEmpty)
  }

  @Test(arguments: [nil, "", "   "] as [String?])
  func unsetOrEmptyVariableFallsBackToDefault(value: String?) async throws {
    let result = try await Self.probe(value)
    #expect(result.standardOutput.contains("context: default\n"))
    #expect(result.standardOutput.contains("chosen by: no test runner or preview detected\n"))
    #expect(result.standardOutput.contains("ProbeKey resolved to: LiveGreeter\n"))
    #expect(result.standardError.isEmpty)
  }

  @Test func junkValueWarnsOnceAndFallsBack() async throws {
    let result = try await Self.probe("staging")
    #expect(result.status == 0)
    #expect(result.standardOutput.contains("context: default\n"))
    let warnings = result.standardError.split(separator: "\n")
    #expect(warnings.count == 1)
    #expect(warnings.first?.contains("TINY_DEPENDENCY_CONTEXT=\"staging\"") == true)
    #expect(warnings.first?.contains("default, live, test, preview") == true)
  }

  @Test func veryLongValueIsShortenedInTheWarning() async throws {
    let result = try await Self.probe(String(repeating: "x", count: 10_000))
    #expect(result.standardOutput.contains("context: default\n"))
    #expect(result.standardError.contains("TINY_DEPENDENCY_CONTEXT=\"xxxxxxxx"))
    #expect(result.standardError.contains("… (10000 bytes)"))
    #expect(result.standardError.count < 400)
  }

  @Test func nonUTF8BytesAreShownEscaped() async throws {
    // The environment of `Process` is made of Strings: let a shell put raw bytes in it.
    let probe = try builtProduct("DependencyContextProbe")
    let result = try await run(
      URL(fileURLWithPath: "/bin/sh"),
      arguments: ["-c", #"TINY_DEPENDENCY_CONTEXT="$(printf 'te\377st')" exec "$0""#, probe.path],
      environment: ["TINY_DEPENDENCY_CONTEXT": nil, "XCODE_RUNNING_FOR_PREVIEWS": nil]
    )
    #expect(result.status == 0)
    #expect(result.standardOutput.contains("context: default\n"))
    #expect(result.standardError.contains(#"TINY_DEPENDENCY_CONTEXT="te\xFFst""#))
  }

  // MARK: - Test runner shape

  /// The environment of a process that no test runner started.
  static let untouched: [String: String?] = [
    "TINY_DEPENDENCY_CONTEXT": nil,
    "XCODE_RUNNING_FOR_PREVIEWS": nil,
    "XCTestConfigurationFilePath": nil,
    "XCTestBundlePath": nil,
    "XCTestSessionIdentifier": nil,
  ]

  /// A copy of the probe named `name`, in a directory of its own.
  static func probeCopy(named name: String) throws -> URL {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("probe-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let copy = directory.appendingPathComponent(name)
    // A hard link is never open for writing, so a process forked meanwhile by a parallel
    // test can't hold it busy; copy only where linking fails (another file system).
    let probe = try builtProduct("DependencyContextProbe")
    do {
      try FileManager.default.linkItem(at: probe, to: copy)
    } catch {
      try FileManager.default.copyItem(at: probe, to: copy)
    }
    return copy
  }

  @Test(arguments: [
    ["search", "--pattern", "--testing-library"],
    ["--testing-library", "swift-testing"],
    ["--test-bundle-path", "/tmp/AppTests.xctest", "--testing-library", "swift-testing"],
    ["-XCTest", "All", "/tmp/AppTests.xctest"],
  ])
  func aUsersArgumentsNeverSelectTest(arguments: [String]) async throws {
    let result = try await run(
      builtProduct("DependencyContextProbe"),
      arguments: arguments,
      environment: Self.untouched
    )
    #expect(result.standardOutput.contains("context: default\n"))
    #expect(result.standardOutput.contains("ProbeKey resolved to: LiveGreeter\n"))
  }

  @Test(arguments: ["xctest", "swiftpm-testing-helper"])
  func anExecutableNamedLikeARunnerIsNotOne(name: String) async throws {
    let copy = try Self.probeCopy(named: name)
    defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
    let result = try await run(
      copy,
      arguments: ["/tmp/AppTests.xctest"],
      environment: Self.untouched
    )
    #expect(result.standardOutput.contains("context: default\n"))
  }

  @Test func aChildProcessOfATestGetsDefaultEvenWithXCTestVariables() async throws {
    // What a test that starts the app it tests passes on: this process's environment, and
    // on Apple platforms the variables XCTest set for it.
    var environment = Self.untouched
    environment["XCTestConfigurationFilePath"] = "/tmp/x.xctestconfiguration"
    environment["XCTestBundlePath"] = "/tmp/AppTests.xctest"
    environment["XCTestSessionIdentifier"] = "5D3F4E2A"
    let result = try await run(builtProduct("DependencyContextProbe"), environment: environment)
    #expect(result.standardOutput.contains("context: default\n"))
  }

  @Test func theTestBundleThatSwiftTestStartsSelectsTest() async throws {
    let copy = try Self.probeCopy(named: "AppPackageTests.xctest")
    defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
    for arguments in [[], ["--testing-library", "swift-testing"]] {
      let result = try await run(copy, arguments: arguments, environment: Self.untouched)
      #expect(result.standardOutput.contains("context: test\n"))
      #expect(result.standardOutput.contains("chosen by: test runner\n"))
    }
  }

  @Test func previewFlagSelectsPreview() async throws {
    let result = try await run(
      builtProduct("DependencyContextProbe"),
      environment: ["TINY_DEPENDENCY_CONTEXT": nil, "XCODE_RUNNING_FOR_PREVIEWS": "1"]
    )
    #expect(result.standardOutput.contains("context: preview\n"))
    #expect(result.standardOutput.contains("chosen by: XCODE_RUNNING_FOR_PREVIEWS\n"))
  }
}
