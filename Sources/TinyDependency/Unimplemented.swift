/// Records an issue for the running test, or writes it to standard error outside tests.
///
/// Use it in test doubles of your own: under Swift Testing it is an issue of the running test,
/// under XCTest a failure of the running test method (with TinyDependencyTesting linked into the
/// test target), and elsewhere a line on standard error. It never stops the process.
///
/// ```swift
/// static var testValue: Analytics {
///   Analytics(track: { event in reportIssue("Analytics.track(\(event)) was not expected") })
/// }
/// ```
///
/// - Parameters:
///   - message: What went wrong.
///   - fileID: The file ID of the caller, where the issue is recorded.
///   - filePath: The file path of the caller.
///   - line: The line of the caller.
///   - column: The column of the caller.
public func reportIssue(
  _ message: String,
  fileID: String = #fileID,
  filePath: String = #filePath,
  line: Int = #line,
  column: Int = #column
) {
  IssueReporter.report(message, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// The error that a throwing closure made by `unimplemented(_:)` throws when it is called.
public struct UnimplementedError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The endpoint that was called, as given to `unimplemented`.
  public let endpoint: String

  /// Creates the error of a call of `endpoint`.
  ///
  /// - Parameter endpoint: The endpoint's name.
  public init(endpoint: String) {
    self.endpoint = endpoint
  }

  /// The endpoint, and that it is unimplemented.
  public var description: String { "\(endpoint) is unimplemented" }
}

/// Where an unimplemented closure was made, to report its calls there.
struct UnimplementedSite: Sendable {
  let endpoint: String
  let fileID: String
  let filePath: String
  let line: Int
  let column: Int

  /// Reports a call of the endpoint, naming the test it happened in.
  func reportCall() {
    let test = TestRoots.provider?.currentTestName().map { " in test \($0)" } ?? ""
    IssueReporter.report(
      "Unimplemented: \(endpoint) was called\(test). Override it for this test, or give the "
        + "test double an implementation.",
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }
}

/// Makes a throwing closure that reports an issue and throws when called.
///
/// An `async` closure type accepts it too. The issue names `endpoint` and the running test.
///
/// ```swift
/// static let testValue = APIClient(fetchUser: unimplemented("APIClient.fetchUser"))
/// ```
///
/// - Parameters:
///   - endpoint: The name of the endpoint, such as `"APIClient.fetchUser"`.
///   - fileID: The file ID of the caller, where calls are reported.
///   - filePath: The file path of the caller.
///   - line: The line of the caller.
///   - column: The column of the caller.
/// - Returns: A closure that reports the call, then throws ``UnimplementedError``.
public func unimplemented<R>(
  _ endpoint: String,
  fileID: String = #fileID,
  filePath: String = #filePath,
  line: Int = #line,
  column: Int = #column
) -> @Sendable () throws -> R {
  let site = UnimplementedSite(
    endpoint: endpoint,
    fileID: fileID,
    filePath: filePath,
    line: line,
    column: column
  )
  return {
    site.reportCall()
    throw UnimplementedError(endpoint: endpoint)
  }
}

/// Makes a closure that reports an issue and returns `placeholder` when called.
///
/// Throwing and `async` closure types accept it too. The issue names `endpoint` and the running
/// test.
///
/// - Parameters:
///   - endpoint: The name of the endpoint, such as `"APIClient.fetchUser"`.
///   - placeholder: The value to return, made for each call.
///   - fileID: The file ID of the caller, where calls are reported.
///   - filePath: The file path of the caller.
///   - line: The line of the caller.
///   - column: The column of the caller.
/// - Returns: A closure that reports the call, then returns the placeholder.
public func unimplemented<R>(
  _ endpoint: String,
  placeholder: @autoclosure @escaping @Sendable () -> R,
  fileID: String = #fileID,
  filePath: String = #filePath,
  line: Int = #line,
  column: Int = #column
) -> @Sendable () -> R {
  let site = UnimplementedSite(
    endpoint: endpoint,
    fileID: fileID,
    filePath: filePath,
    line: line,
    column: column
  )
  return {
    site.reportCall()
    return placeholder()
  }
}

/// Makes a closure returning nothing that reports an issue when called.
///
/// - Parameters:
///   - endpoint: The name of the endpoint, such as `"APIClient.fetchUser"`.
///   - fileID: The file ID of the caller, where calls are reported.
///   - filePath: The file path of the caller.
///   - line: The line of the caller.
///   - column: The column of the caller.
/// - Returns: A closure that reports the call.
@_disfavoredOverload
public func unimplemented(
  _ endpoint: String,
  fileID: String = #fileID,
  filePath: String = #filePath,
  line: Int = #line,
  column: Int = #column
) -> @Sendable () -> Void {
  let site = UnimplementedSite(
    endpoint: endpoint,
    fileID: fileID,
    filePath: filePath,
    line: line,
    column: column
  )
  return {
    site.reportCall()
  }
}

/// Makes a throwing closure taking one argument that reports an issue and throws when called.
///
/// An `async` closure type accepts it too. The issue names `endpoint` and the running test.
///
/// ```swift
/// static let testValue = APIClient(fetchUser: unimplemented("APIClient.fetchUser"))
/// ```
///
/// - Parameters:
///   - endpoint: The name of the endpoint, such as `"APIClient.fetchUser"`.
///   - fileID: The file ID of the caller, where calls are reported.
///   - filePath: The file path of the caller.
///   - line: The line of the caller.
///   - column: The column of the caller.
/// - Returns: A closure that reports the call, then throws ``UnimplementedError``.
public func unimplemented<A, R>(
  _ endpoint: String,
  fileID: String = #fileID,
  filePath: String = #filePath,
  line: Int = #line,
  column: Int = #column
) -> @Sendable (A) throws -> R {
  let site = UnimplementedSite(
    endpoint: endpoint,
    fileID: fileID,
    filePath: filePath,
    line: line,
    column: column
  )
  return { _ in
    site.reportCall()
    throw UnimplementedError(endpoint: endpoint)
  }
}

/// Makes a closure taking one argument that reports an issue and returns `placeholder` when called.
///
/// Throwing and `async` closure types accept it too. The issue names `endpoint` and the running
/// test.
///
/// - Parameters:
///   - endpoint: The name of the endpoint, such as `"APIClient.fetchUser"`.
///   - placeholder: The value to return, made for each call.
///   - fileID: The file ID of the caller, where calls are reported.
///   - filePath: The file path of the caller.
///   - line: The line of the caller.
///   - column: The column of the caller.
/// - Returns: A closure that reports the call, then returns the placeholder.
public func unimplemented<A, R>(
  _ endpoint: String,
  placeholder: @autoclosure @escaping @Sendable () -> R,
  fileID: String = #fileID,
  filePath: String = #filePath,
  line: Int = #line,
  column: Int = #column
) -> @Sendable (A) -> R {
  let site = UnimplementedSite(
    endpoint: endpoint,
    fileID: fileID,
    filePath: filePath,
    line: line,
    column: column
  )
  return { _ in
    site.reportCall()
    return placeholder()
  }
}

/// Makes a closure taking one argument returning nothing that reports an issue when called.
///
/// - Parameters:
///   - endpoint: The name of the endpoint, such as `"APIClient.fetchUser"`.
///   - fileID: The file ID of the caller, where calls are reported.
///   - filePath: The file path of the caller.
///   - line: The line of the caller.
///   - column: The column of the caller.
/// - Returns: A closure that reports the call.
@_disfavoredOverload
public func unimplemented<A>(
  _ endpoint: String,
  fileID: String = #fileID,
  filePath: String = #filePath,
  line: Int = #line,
  column: Int = #column
) -> @Sendable (A) -> Void {
  let site = UnimplementedSite(
    endpoint: endpoint,
    fileID: fileID,
    filePath: filePath,
    line: line,
    column: column
  )
  return { _ in
    site.reportCall()
  }
}

/// Makes a throwing closure taking two arguments that reports an issue and throws when called.
///
/// An `async` closure type accepts it too. The issue names `endpoint` and the running test.
///
/// ```swift
/// static let testValue = APIClient(fetchUser: unimplemented("APIClient.fetchUser"))
/// ```
///
/// - Parameters:
///   - endpoint: The name of the endpoint, such as `"APIClient.fetchUser"`.
///   - fileID: The file ID of the caller, where calls are reported.
///   - filePath: The file path of the caller.
///   - line: The line of the caller.
///   - column: The column of the caller.
/// - Returns: A closure that reports the call, then throws ``UnimplementedError``.
public func unimplemented<A, B, R>(
  _ endpoint: String,
  fileID: String = #fileID,
  filePath: String = #filePath,
  line: Int = #line,
  column: Int = #column
) -> @Sendable (A, B) throws -> R {
  let site = UnimplementedSite(
    endpoint: endpoint,
    fileID: fileID,
    filePath: filePath,
    line: line,
    column: column
  )
  return { _, _ in
    site.reportCall()
    throw UnimplementedError(endpoint: endpoint)
  }
}

/// Makes a closure taking two arguments that reports an issue and returns `placeholder` when called.
///
/// Throwing and `async` closure types accept it too. The issue names `endpoint` and the running
/// test.
///
/// - Parameters:
///   - endpoint: The name of the endpoint, such as `"APIClient.fetchUser"`.
///   - placeholder: The value to return, made for each call.
///   - fileID: The file ID of the caller, where calls are reported.
///   - filePath: The file path of the caller.
///   - line: The line of the caller.
///   - column: The column of the caller.
/// - Returns: A closure that reports the call, then returns the placeholder.
public func unimplemented<A, B, R>(
  _ endpoint: String,
  placeholder: @autoclosure @escaping @Sendable () -> R,
  fileID: String = #fileID,
  filePath: String = #filePath,
  line: Int = #line,
  column: Int = #column
) -> @Sendable (A, B) -> R {
  let site = UnimplementedSite(
    endpoint: endpoint,
    fileID: fileID,
    filePath: filePath,
    line: line,
    column: column
  )
  return { _, _ in
    site.reportCall()
    return placeholder()
  }
}

/// Makes a closure taking two arguments returning nothing that reports an issue when called.
///
/// - Parameters:
///   - endpoint: The name of the endpoint, such as `"APIClient.fetchUser"`.
///   - fileID: The file ID of the caller, where calls are reported.
///   - filePath: The file path of the caller.
///   - line: The line of the caller.
///   - column: The column of the caller.
/// - Returns: A closure that reports the call.
@_disfavoredOverload
public func unimplemented<A, B>(
  _ endpoint: String,
  fileID: String = #fileID,
  filePath: String = #filePath,
  line: Int = #line,
  column: Int = #column
) -> @Sendable (A, B) -> Void {
  let site = UnimplementedSite(
    endpoint: endpoint,
    fileID: fileID,
    filePath: filePath,
    line: line,
    column: column
  )
  return { _, _ in
    site.reportCall()
  }
}

/// Makes a throwing closure taking three arguments that reports an issue and throws when called.
///
/// An `async` closure type accepts it too. The issue names `endpoint` and the running test.
///
/// ```swift
/// static let testValue = APIClient(fetchUser: unimplemented("APIClient.fetchUser"))
/// ```
///
/// - Parameters:
///   - endpoint: The name of the endpoint, such as `"APIClient.fetchUser"`.
///   - fileID: The file ID of the caller, where calls are reported.
///   - filePath: The file path of the caller.
///   - line: The line of the caller.
///   - column: The column of the caller.
/// - Returns: A closure that reports the call, then throws ``UnimplementedError``.
public func unimplemented<A, B, C, R>(
  _ endpoint: String,
  fileID: String = #fileID,
  filePath: String = #filePath,
  line: Int = #line,
  column: Int = #column
) -> @Sendable (A, B, C) throws -> R {
  let site = UnimplementedSite(
    endpoint: endpoint,
    fileID: fileID,
    filePath: filePath,
    line: line,
    column: column
  )
  return { _, _, _ in
    site.reportCall()
    throw UnimplementedError(endpoint: endpoint)
  }
}

/// Makes a closure taking three arguments that reports an issue and returns `placeholder` when called.
///
/// Throwing and `async` closure types accept it too. The issue names `endpoint` and the running
/// test.
///
/// - Parameters:
///   - endpoint: The name of the endpoint, such as `"APIClient.fetchUser"`.
///   - placeholder: The value to return, made for each call.
///   - fileID: The file ID of the caller, where calls are reported.
///   - filePath: The file path of the caller.
///   - line: The line of the caller.
///   - column: The column of the caller.
/// - Returns: A closure that reports the call, then returns the placeholder.
public func unimplemented<A, B, C, R>(
  _ endpoint: String,
  placeholder: @autoclosure @escaping @Sendable () -> R,
  fileID: String = #fileID,
  filePath: String = #filePath,
  line: Int = #line,
  column: Int = #column
) -> @Sendable (A, B, C) -> R {
  let site = UnimplementedSite(
    endpoint: endpoint,
    fileID: fileID,
    filePath: filePath,
    line: line,
    column: column
  )
  return { _, _, _ in
    site.reportCall()
    return placeholder()
  }
}

/// Makes a closure taking three arguments returning nothing that reports an issue when called.
///
/// - Parameters:
///   - endpoint: The name of the endpoint, such as `"APIClient.fetchUser"`.
///   - fileID: The file ID of the caller, where calls are reported.
///   - filePath: The file path of the caller.
///   - line: The line of the caller.
///   - column: The column of the caller.
/// - Returns: A closure that reports the call.
@_disfavoredOverload
public func unimplemented<A, B, C>(
  _ endpoint: String,
  fileID: String = #fileID,
  filePath: String = #filePath,
  line: Int = #line,
  column: Int = #column
) -> @Sendable (A, B, C) -> Void {
  let site = UnimplementedSite(
    endpoint: endpoint,
    fileID: fileID,
    filePath: filePath,
    line: line,
    column: column
  )
  return { _, _, _ in
    site.reportCall()
  }
}
