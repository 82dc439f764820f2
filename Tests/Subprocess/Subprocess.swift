package import Foundation

// Shared by the test targets that run the package's executables in a child process.

/// What a finished subprocess printed, and how it ended.
package struct SubprocessResult: Sendable {
  package var status: Int32
  package var standardOutput: String
  package var standardError: String
}

/// Finds an executable product built next to this test bundle.
package func builtProduct(_ name: String) throws -> URL {
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
///
/// The child is started and waited for on a thread of its own: the test's task gives its thread
/// back to the concurrency pool meanwhile. A child can run for minutes on a loaded machine (a
/// `swift build`, or an executable under ThreadSanitizer); on two cores, two tests waiting for
/// one on pool threads would stop every async test beside them, and their deadlines would pass.
package func run(
  _ executable: URL,
  arguments: [String] = [],
  environment changes: [String: String?] = [:]
) async throws -> SubprocessResult {
  try await withCheckedThrowingContinuation { continuation in
    Thread.detachNewThread {
      continuation.resume(
        with: Result { try runBlocking(executable, arguments: arguments, environment: changes) }
      )
    }
  }
}

/// ``run(_:arguments:environment:)``, on the calling thread.
private func runBlocking(
  _ executable: URL,
  arguments: [String],
  environment changes: [String: String?]
) throws -> SubprocessResult {
  var environment = ProcessInfo.processInfo.environment
  for (name, value) in changes {
    environment[name] = value
  }
  var attempt = 0
  while true {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = environment
    let outputPipe = Pipe()
    let errorPipe = Pipe()
    process.standardOutput = outputPipe
    process.standardError = errorPipe
    do {
      try process.run()
    } catch let failure where isTextFileBusy(failure) && attempt < 50 {
      // A test running in parallel forked while a copied executable was still open for
      // writing: the child holds the write descriptor until it execs. Wait and try again.
      attempt += 1
      Thread.sleep(forTimeInterval: 0.02)
      continue
    }
    return finish(process, output: outputPipe, error: errorPipe)
  }
}

/// Whether starting a process failed with `ETXTBSY` (the executable is open for writing).
private func isTextFileBusy(_ error: any Error) -> Bool {
  let error = error as NSError
  if error.domain == NSPOSIXErrorDomain && error.code == Int(ETXTBSY) { return true }
  guard let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError else { return false }
  return underlying.domain == NSPOSIXErrorDomain && underlying.code == Int(ETXTBSY)
}

/// Reads everything a started process prints and waits for it to end.
private func finish(_ process: Process, output: Pipe, error: Pipe) -> SubprocessResult {
  let outputData = output.fileHandleForReading.readDataToEndOfFile()
  let errorData = error.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return SubprocessResult(
    status: process.terminationStatus,
    standardOutput: String(decoding: outputData, as: UTF8.self),
    standardError: String(decoding: errorData, as: UTF8.self)
  )
}
