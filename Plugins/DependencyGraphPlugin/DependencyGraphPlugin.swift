import Foundation
import PackagePlugin

/// `swift package dependency-graph --product NAME [ARGUMENTS…]`: builds the executable product
/// NAME (a check that calls `DependencyCheck.main`) and runs it with the other arguments, in the
/// package's directory, so that relative paths given to `--output` and `--check` name files of
/// the package. The run's standard output and error pass through, and so does its exit status.
@main
struct DependencyGraphPlugin: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    var arguments = arguments
    guard let product = Self.extractProduct(from: &arguments) else {
      Self.fail(
        """
        error: name the check's executable product with --product NAME
        usage: swift package dependency-graph --product NAME [--format text|mermaid|dot|json] \
        [--context test|preview|default] [--output FILE | --check FILE] [--help]
        executable products of this package: \
        \(context.package.products.compactMap { $0 as? ExecutableProduct }.map(\.name).sorted().joined(separator: ", "))
        """,
        status: 2
      )
    }
    let started = Date()
    let result = try packageManager.build(
      .product(product),
      parameters: PackageManager.BuildParameters(configuration: .debug, logging: .concise)
    )
    guard result.succeeded else {
      Self.fail(result.logText + "\nerror: building \(product) failed", status: 1)
    }
    guard
      let executable = result.builtArtifacts.first(where: {
        $0.kind == .executable && $0.url.lastPathComponent == product
      })
    else {
      Self.fail("error: \(product) is not an executable product of this package", status: 2)
    }
    if ProcessInfo.processInfo.environment["DEPENDENCY_GRAPH_TIMING"] != nil {
      let seconds = Date().timeIntervalSince(started)
      FileHandle.standardError.write(Data("built \(product) in \(seconds) s\n".utf8))
    }

    // The check's standard output passes through. SwiftPM prints what a plugin writes to
    // standard error on its standard output, so the check's errors (findings, usage) are
    // passed on as diagnostics, which it prints on standard error: `--format json > file`
    // stays clean.
    let process = Process()
    process.executableURL = executable.url
    process.arguments = arguments
    process.currentDirectoryURL = context.package.directoryURL
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let errorText = String(
      decoding: errors.fileHandleForReading.readDataToEndOfFile(),
      as: UTF8.self
    )
    process.waitUntilExit()
    let status = process.terminationStatus
    var message = errorText.hasSuffix("\n") ? String(errorText.dropLast()) : errorText
    // SwiftPM starts the diagnostic with `error: ` itself.
    if message.hasPrefix("error: ") { message.removeFirst("error: ".count) }
    // `swift package` ends with 1 whatever the plugin's status: name the check's.
    if status != 0 {
      let meaning = [1: "findings", 2: "usage error", 3: "the graph differs from --check's file"]
      message +=
        (message.isEmpty ? "" : "\n")
        + "\(product) exited with status \(status) (\(meaning[Int(status)] ?? "failure"))"
    }
    if !message.isEmpty {
      if status == 0 { Diagnostics.warning(message) } else { Diagnostics.error(message) }
    }
    if status != 0 { exit(status) }
  }

  /// Removes `--product NAME` (or `--product=NAME`) from `arguments` and returns NAME.
  static func extractProduct(from arguments: inout [String]) -> String? {
    for (index, argument) in arguments.enumerated() {
      if argument == "--product", index + 1 < arguments.count {
        let name = arguments[index + 1]
        arguments.removeSubrange(index...index + 1)
        return name
      }
      if argument.hasPrefix("--product=") {
        arguments.remove(at: index)
        return String(argument.dropFirst("--product=".count))
      }
    }
    return nil
  }

  static func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
  }
}
