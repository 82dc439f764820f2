/// How the process's context was chosen, and the warning to print about it, if any.
package struct ContextDetection: Sendable, Equatable {
  /// What decided the context.
  package enum Source: String, Sendable, Equatable {
    case environmentVariable = "TINY_DEPENDENCY_CONTEXT"
    case preview = "XCODE_RUNNING_FOR_PREVIEWS"
    case testRunner = "test runner"
    case fallback = "no test runner or preview detected"
  }

  /// The name of the variable that selects a context.
  package static let variableName = "TINY_DEPENDENCY_CONTEXT"

  package var context: DependencyContext
  package var source: Source
  /// A message for standard error when `TINY_DEPENDENCY_CONTEXT` held a value that names no
  /// context.
  package var warning: String?

  /// The detection for this process, computed once; its warning is printed when it is computed.
  package static let process: ContextDetection = {
    let detection = detect(
      environment: SystemInterface.environmentBytes,
      arguments: CommandLine.arguments
    )
    if let warning = detection.warning {
      SystemInterface.writeToStandardError(warning)
    }
    return detection
  }()

  /// Decides the context from an environment and the process arguments.
  ///
  /// - Parameters:
  ///   - environment: Returns the raw bytes of a variable, or nil when it is unset.
  ///   - arguments: The process arguments, `argv[0]` first.
  package static func detect(
    environment: (String) -> [UInt8]?,
    arguments: [String]
  ) -> ContextDetection {
    var warning: String?
    if let bytes = environment(variableName), !trimmed(bytes).isEmpty {
      if let context = parse(bytes) {
        return ContextDetection(context: context, source: .environmentVariable, warning: nil)
      }
      warning = """
        TinyDependency: warning: ignoring \(variableName)=\(quoted(bytes)): it names no context. \
        Accepted values: default, live, test, preview (case-insensitive; empty means unset). \
        Choosing the context automatically instead.
        """
    }
    if let flag = environment("XCODE_RUNNING_FOR_PREVIEWS"), trimmed(flag).elementsEqual("1".utf8) {
      return ContextDetection(context: .preview, source: .preview, warning: warning)
    }
    if isTestRunner(environment: environment, arguments: arguments) {
      return ContextDetection(context: .test, source: .testRunner, warning: warning)
    }
    return ContextDetection(context: .default, source: .fallback, warning: warning)
  }

  /// The platforms whose test runners have different shapes.
  package enum RunnerPlatform: Sendable {
    /// macOS, iOS and the other Apple platforms: `xctest`, `swiftpm-testing-helper`, or an app
    /// hosting a test bundle.
    case apple
    /// Linux and the others: the `.xctest` executable that `swift test` builds and starts.
    case other

    /// The platform this process runs on.
    package static var current: RunnerPlatform {
      #if canImport(Darwin)
        .apple
      #else
        .other
      #endif
    }
  }

  /// The variables XCTest sets for the process it runs tests in, and that the processes this
  /// one starts inherit.
  static let xcTestVariables = [
    "XCTestConfigurationFilePath", "XCTestBundlePath", "XCTestSessionIdentifier",
  ]

  /// Whether the process has the shape of a test runner; a user's arguments alone never make
  /// it one.
  ///
  /// - Everywhere: `argv[0]` is an `.xctest` executable, which `swift test` builds and starts
  ///   on Linux (with `--testing-library swift-testing` for Swift Testing, or without for
  ///   XCTest).
  /// - Apple platforms: `argv[0]` is `swiftpm-testing-helper` and `argv[1]` is
  ///   `--test-bundle-path` (Swift Testing under `swift test`); or `argv[0]` is `xctest` in a
  ///   `/Developer/` directory (Xcode's or the command line tools') and an argument is an
  ///   `.xctest` bundle; or `argv[0]` is inside an `.xctest` bundle; or an `XCTest*` variable is
  ///   set and XCTest is loaded in this process (an app hosting its tests).
  ///
  /// A process a test starts inherits the `XCTest*` variables but does not load XCTest, so it
  /// gets the default context; set `TINY_DEPENDENCY_CONTEXT=test` for it to use test values.
  ///
  /// - Parameters:
  ///   - environment: Returns the raw bytes of a variable, or nil when it is unset.
  ///   - arguments: The process arguments, `argv[0]` first.
  ///   - platform: Whose runner shapes to accept.
  ///   - loadsXCTest: Whether XCTest is loaded in this process; asked only when needed.
  package static func isTestRunner(
    environment: (String) -> [UInt8]?,
    arguments: [String],
    platform: RunnerPlatform = .current,
    loadsXCTest: () -> Bool = ContextDetection.isXCTestLoaded
  ) -> Bool {
    guard let executable = arguments.first else { return false }
    let components = executable.split(separator: "/")
    let lastComponent: Substring? = components.last
    let name: String = lastComponent.map { String($0) } ?? executable
    if name.hasSuffix(".xctest") { return true }
    guard platform == .apple else { return false }
    if name == "swiftpm-testing-helper", arguments.dropFirst().first == "--test-bundle-path" {
      return true
    }
    func isBundle(_ argument: String) -> Bool {
      argument.hasSuffix(".xctest") || argument.hasSuffix(".xctest/")
    }
    // By path components: `String.contains(_:)` of a string needs macOS 13 without Foundation.
    if name == "xctest", components.dropLast().contains("Developer"),
      arguments.dropFirst().contains(where: isBundle)
    {
      return true
    }
    if components.dropLast().contains(where: { $0.hasSuffix(".xctest") }) { return true }
    return xcTestVariables.contains { environment($0) != nil } && loadsXCTest()
  }

  /// Whether XCTest is loaded in this process: its `XCTestCase` class is registered.
  package static func isXCTestLoaded() -> Bool {
    #if canImport(Darwin)
      SystemInterface.isSymbolLoaded("OBJC_CLASS_$_XCTestCase")
    #else
      false
    #endif
  }

  /// Parses a context name from raw bytes: trimmed, ASCII case-insensitive.
  static func parse(_ bytes: [UInt8]) -> DependencyContext? {
    let name = String(decoding: trimmed(bytes).map(asciiLowercased), as: UTF8.self)
    switch name {
    case "default", "live": return .default
    case "test": return .test
    case "preview": return .preview
    default: return nil
    }
  }

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || (0x09...0x0D).contains(byte)
  }

  private static func trimmed(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
    guard let first = bytes.firstIndex(where: { !isWhitespace($0) }),
      let last = bytes.lastIndex(where: { !isWhitespace($0) })
    else { return [] }
    return bytes[first...last]
  }

  private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
    (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
  }

  /// Quotes raw bytes for a message: printable ASCII as is, anything else as `\xNN`, long
  /// values shortened with their length.
  static func quoted(_ bytes: [UInt8]) -> String {
    let limit = 64
    var text = "\""
    for byte in bytes.prefix(limit) {
      switch byte {
      case 0x22: text += "\\\""
      case 0x5C: text += "\\\\"
      case 0x20...0x7E: text.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = String(byte, radix: 16, uppercase: true)
        text += "\\x" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    text += "\""
    if bytes.count > limit {
      text += "… (\(bytes.count) bytes)"
    }
    return text
  }
}
