/// The context that decides which of a key's values is used: default (live), test or preview.
///
/// A container's context is chosen at run time, in this order:
///
/// 1. the container's explicit context (`DependencyValues(context: .test)`, or
///    `$0.context = .preview` inside
///    ``withDependencies(_:operation:)-((DependencyValues)->Void,_)``);
/// 2. the `TINY_DEPENDENCY_CONTEXT` environment variable: `default`, `live`, `test` or
///    `preview`, trimmed and case-insensitive; an empty value counts as unset, and any other
///    value is ignored with one warning on standard error;
/// 3. `XCODE_RUNNING_FOR_PREVIEWS=1`: preview;
/// 4. a test runner (`swift test`, Xcode, `xctest`): test;
/// 5. otherwise: default.
///
/// Steps 2 to 5 run once per process.
public enum DependencyContext: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// The live context: real implementations (``DependencyKey/defaultValue``).
  case `default`

  /// The test context: ``DependencyKey/testValue``.
  case test

  /// The preview context: ``DependencyKey/previewValue``.
  case preview

  /// The live context; another name for ``default``.
  public static var live: DependencyContext { .default }

  /// The context detected for this process, when no container chose one explicitly.
  public static var detected: DependencyContext { ContextDetection.process.context }

  /// Parses a context name as `TINY_DEPENDENCY_CONTEXT` does: `default`, `live`, `test` or
  /// `preview`, ignoring case and surrounding white space.
  ///
  /// - Parameter text: The name to parse.
  /// - Returns: The context, or nil when `text` names none.
  public init?(parsing text: some StringProtocol) {
    guard let context = ContextDetection.parse(Array(text.utf8)) else { return nil }
    self = context
  }

  /// The context's name: `default`, `test` or `preview`.
  public var description: String { rawValue }
}

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

  /// Whether the process is a test runner: an `.xctest` bundle or binary, Swift Testing's
  /// entry point, `swiftpm-testing-helper`, or Xcode's `XCTest*` variables.
  package static func isTestRunner(
    environment: (String) -> [UInt8]?,
    arguments: [String]
  ) -> Bool {
    if arguments.contains("--testing-library") { return true }
    if let executable = arguments.first {
      let name = executable.split(separator: "/").last.map(String.init) ?? executable
      if name.hasSuffix(".xctest") || name == "xctest" || name == "swiftpm-testing-helper" {
        return true
      }
      if executable.contains(".xctest/") { return true }
    }
    for variable in ["XCTestConfigurationFilePath", "XCTestBundlePath", "XCTestSessionIdentifier"]
    where environment(variable) != nil {
      return true
    }
    return false
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
