import Foundation

/// What a finished subprocess printed, and how it ended.
struct SubprocessResult {
  var status: Int32
  var standardOutput: String
  var standardError: String
}

/// Finds an executable product built next to this test bundle.
func builtProduct(_ name: String) throws -> URL {
  final class BundleLocator {}
  let candidates = [
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
    Bundle(for: BundleLocator.self).bundleURL.deletingLastPathComponent(),
    Bundle.main.bundleURL,
  ]
  for directory in candidates {
    let url = directory.appendingPathComponent(name)
    if FileManager.default.isExecutableFile(atPath: url.path) { return url }
  }
  struct NotBuilt: Error, CustomStringConvertible {
    var description: String
  }
  throw NotBuilt(description: "\(name) not found next to the test bundle: \(candidates)")
}

/// Runs an executable with `environment` added to (or removed from, for nil) this process's.
func run(
  _ executable: URL,
  arguments: [String] = [],
  environment changes: [String: String?] = [:]
) throws -> SubprocessResult {
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  var environment = ProcessInfo.processInfo.environment
  for (name, value) in changes {
    environment[name] = value
  }
  process.environment = environment
  let output = Pipe()
  let error = Pipe()
  process.standardOutput = output
  process.standardError = error
  try process.run()
  let outputData = output.fileHandleForReading.readDataToEndOfFile()
  let errorData = error.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return SubprocessResult(
    status: process.terminationStatus,
    standardOutput: String(decoding: outputData, as: UTF8.self),
    standardError: String(decoding: errorData, as: UTF8.self)
  )
}
