// Compiled copies of the code blocks in sections 5 to 9 of Examples.md. DocumentationTests checks
// that every ```swift block there appears in a GuideExamples+ file line for line; edit both
// together.

import Dispatch
import TinyDependency

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

// MARK: - 5. An explicit container per server request

struct RequestID: Sendable, Hashable {
  var rawValue: String
}

enum RequestIDKey: DependencyKey {
  static let defaultValue = RequestID(rawValue: "no-request")
}

extension DependencyValues {
  var requestID: RequestID {
    get { self[RequestIDKey.self] }
    set { self[RequestIDKey.self] = newValue }
  }
}

struct GreetingHandler {
  @Dependency(\.requestID) var requestID
  @Dependency(\.auditLog) var log

  func handle(name: String) -> String {
    log.log("\(requestID.rawValue): greeting \(name)")
    return "Hello, \(name)!"
  }
}

/// One container per request: its overrides and everything built from them stay with it.
func serve(requestID: String, name: String) async -> String {
  var request = DependencyValues(context: .default)
  request.requestID = RequestID(rawValue: requestID)
  request.auditLog = RecordingLogger()
  return withDependencies(request) {
    GreetingHandler().handle(name: name)
  }
}

// MARK: - 6. A conditional default

enum StorageDirectoryKey: DependencyKey {
  /// `$APP_DATA_DIR` when it is set, otherwise a directory under the working directory.
  static var defaultValue: String {
    if let configured = getenv("APP_DATA_DIR") {
      return String(cString: configured)
    }
    return "./data"
  }
  static let testValue = "/tmp/app-tests"
}

extension DependencyValues {
  var storageDirectory: String {
    get { self[StorageDirectoryKey.self] }
    set { self[StorageDirectoryKey.self] = newValue }
  }
}

// MARK: - 7. Escaping to Dispatch and detached tasks

func reportInBackground(_ message: String, done: @escaping @Sendable () -> Void) {
  withEscapedDependencies { continuation in
    DispatchQueue.global().async {
      continuation.yield {
        DependencyValues.current.auditLog.log(message)  // the caller's scope, not the root
        done()
      }
    }
  }
}

func reportDetached(_ message: String) async {
  await withEscapedDependencies { continuation in
    await Task.detached {
      continuation.yield {
        DependencyValues.current.auditLog.log(message)
      }
    }.value
  }
}

// MARK: - 9. An input for a server's settings

enum ListenPortKey: DependencyInputKey {
  typealias Value = Int
  static let testValue = 0  // tests ask the system for a free port
}

enum DatabaseURLKey: DependencyInputKey {
  typealias Value = String
}

func makeServerContainer(port: Int, databaseURL: String?) -> DependencyValues? {
  var values = DependencyValues(context: .default)
  values[ListenPortKey.self] = port
  if let databaseURL { values[DatabaseURLKey.self] = databaseURL }
  let missing = values.unsetInputs(among: [ListenPortKey.self, DatabaseURLKey.self])
  guard missing.isEmpty else {
    let names = missing.map { "\($0)" }.joined(separator: ", ")
    print("missing settings: \(names)")  // "missing settings: DatabaseURLKey"
    return nil
  }
  return values
}
