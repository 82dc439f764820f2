// The signatures of IssueReporting's public functions that TinyDependency also declares. Each
// records that it ran in `standInCalls`, so the fixture's check can tell whose ran.

/// What the stand-in's functions were called for, in order.
nonisolated(unsafe) public var standInCalls: [String] = []

/// A destination for issues (the real protocol has requirements; the fixture needs the name).
public protocol IssueReporter: Sendable {}

/// `true` here, so that the check tells this `isTesting` from TinyDependency's (false outside
/// tests).
public let isTesting = true

/// Reports an issue.
public func reportIssue(
  _ message: @autoclosure () -> String? = nil,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  standInCalls.append("reportIssue(message)")
}

/// Reports a caught error.
public func reportIssue(
  _ error: any Error,
  _ message: @autoclosure () -> String? = nil,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  standInCalls.append("reportIssue(error)")
}

/// Runs `body` and reports what it throws.
@discardableResult
public func withErrorReporting<R>(
  _ message: @autoclosure () -> String? = nil,
  to reporters: [any IssueReporter]? = nil,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  catching body: () throws -> R
) -> R? {
  standInCalls.append("withErrorReporting")
  return try? body()
}

/// Runs asynchronous `body` and reports what it throws.
@discardableResult
public func withErrorReporting<R>(
  _ message: @autoclosure () -> String? = nil,
  to reporters: [any IssueReporter]? = nil,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  catching body: () async throws -> sending R
) async -> R? {
  standInCalls.append("withErrorReporting async")
  return try? await body()
}

/// Makes a closure that reports its calls and returns `placeholder`.
public func unimplemented<each Argument, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  placeholder: @autoclosure @escaping @Sendable () -> Result = (),
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  function: StaticString = #function,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each Argument) -> Result {
  standInCalls.append("unimplemented closure")
  return { (_: repeat each Argument) in placeholder() }
}

/// Makes a throwing closure that reports its calls.
public func unimplemented<each Argument, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  function: StaticString = #function,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each Argument) throws -> Result {
  standInCalls.append("unimplemented throwing closure")
  return { (_: repeat each Argument) in throw Unimplemented() }
}

/// Makes an asynchronous closure that reports its calls and returns `placeholder`.
public func unimplemented<each Argument, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  placeholder: @autoclosure @escaping @Sendable () -> Result = (),
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  function: StaticString = #function,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each Argument) async -> Result {
  standInCalls.append("unimplemented async closure")
  return { (_: repeat each Argument) in placeholder() }
}

/// Makes an asynchronous throwing closure that reports its calls.
public func unimplemented<each Argument, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  function: StaticString = #function,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each Argument) async throws -> Result {
  standInCalls.append("unimplemented async throwing closure")
  return { (_: repeat each Argument) in throw Unimplemented() }
}

/// Reports an issue now and returns `placeholder`.
@_disfavoredOverload
public func unimplemented<Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  placeholder: @autoclosure @escaping @Sendable () -> Result = (),
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  function: StaticString = #function,
  line: UInt = #line,
  column: UInt = #column
) -> Result {
  standInCalls.append("unimplemented value")
  return placeholder()
}

struct Unimplemented: Error {}
