/// Records a caught error as an issue of the running test, or writes it to standard error
/// outside tests.
///
/// ```swift
/// do {
///   try await client.save(draft)
/// } catch {
///   reportIssue(error)
/// }
/// ```
///
/// - Parameters:
///   - error: The error that was caught.
///   - message: What was being done, put before the error.
///   - fileID: The file ID of the caller, where the issue is recorded.
///   - filePath: The file path of the caller.
///   - line: The line of the caller.
///   - column: The column of the caller.
@_disfavoredOverload
public func reportIssue(
  _ error: any Error,
  _ message: @autoclosure () -> String? = nil,
  fileID: String = #fileID,
  filePath: String = #filePath,
  line: Int = #line,
  column: Int = #column
) {
  let prefix = message().map { "\($0): " } ?? ""
  let site = SourceSite(fileID, filePath, line, column)
  IssueReporter.report("\(prefix)Caught error: \(error)", at: site)
}

/// Runs `body` and reports what it throws as an issue, instead of throwing it.
///
/// ```swift
/// withErrorReporting {
///   try store.save()
/// }
/// ```
///
/// - Parameters:
///   - message: What is being done, put before a thrown error in the issue.
///   - fileID: The file ID of the caller, where an issue is recorded.
///   - filePath: The file path of the caller.
///   - line: The line of the caller.
///   - column: The column of the caller.
///   - body: The work that may throw.
/// - Returns: What `body` returns, or nil when it threw.
@_disfavoredOverload
@discardableResult
public func withErrorReporting<R>(
  _ message: @autoclosure () -> String? = nil,
  fileID: String = #fileID,
  filePath: String = #filePath,
  line: Int = #line,
  column: Int = #column,
  catching body: () throws -> R
) -> R? {
  do {
    return try body()
  } catch {
    reportIssue(error, message(), fileID: fileID, filePath: filePath, line: line, column: column)
    return nil
  }
}

/// Runs asynchronous `body` and reports what it throws as an issue, instead of throwing it.
///
/// ```swift
/// await withErrorReporting {
///   try await client.sync()
/// }
/// ```
///
/// - Parameters:
///   - message: What is being done, put before a thrown error in the issue.
///   - isolation: The actor `body` runs on; the caller's by default.
///   - fileID: The file ID of the caller, where an issue is recorded.
///   - filePath: The file path of the caller.
///   - line: The line of the caller.
///   - column: The column of the caller.
///   - body: The work that may throw.
/// - Returns: What `body` returns, or nil when it threw.
@_disfavoredOverload
@discardableResult
public func withErrorReporting<R>(
  _ message: @autoclosure () -> String? = nil,
  isolation: isolated (any Actor)? = #isolation,
  fileID: String = #fileID,
  filePath: String = #filePath,
  line: Int = #line,
  column: Int = #column,
  catching body: () async throws -> R
) async -> R? {
  do {
    return try await body()
  } catch {
    reportIssue(error, message(), fileID: fileID, filePath: filePath, line: line, column: column)
    return nil
  }
}

/// Whether this process runs tests: it has the shape of a test runner (see
/// ``DependencyContext``), whatever context a container chose.
///
/// ```swift
/// if !isTesting {
///   startAnalytics()
/// }
/// ```
///
/// In a file that also imports IssueReporting, the unqualified name means IssueReporting's.
@_disfavoredOverload
public let isTesting: Bool = ContextDetection.isTestRunner(
  environment: SystemInterface.environmentBytes,
  arguments: CommandLine.arguments
)
