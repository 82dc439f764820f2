/// Makes a closure of any arity that reports an issue and returns `placeholder` when called.
///
/// Its arguments, `async`, and a throwing closure type are all inferred from where it is used.
/// The issue names `description` (or, when it is empty, the declaration and line it was made
/// at) and the running test.
///
/// ```swift
/// static let testValue = Analytics(
///   track: unimplemented("Analytics.track"),        // (String) -> Void
///   count: unimplemented("Analytics.count", placeholder: 0)
/// )
/// ```
///
/// - Parameters:
///   - description: The endpoint's name, such as `"APIClient.fetchUser"`; empty names it from
///     where it is made.
///   - placeholder: The value to return, made for each call; nothing for a `Void` closure.
///   - fileID: The file ID of the caller, where calls are reported.
///   - filePath: The file path of the caller.
///   - function: The declaration the closure is made in.
///   - line: The line of the caller.
///   - column: The column of the caller.
/// - Returns: A closure that reports the call, then returns the placeholder.
@_disfavoredOverload
public func unimplemented<each Argument, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  placeholder: @autoclosure @escaping @Sendable () -> Result = (),
  fileID: String = #fileID,
  filePath: String = #filePath,
  function: String = #function,
  line: Int = #line,
  column: Int = #column
) -> @Sendable (repeat each Argument) -> Result {
  let site = UnimplementedSite(description, function, SourceSite(fileID, filePath, line, column))
  return { (_: repeat each Argument) in
    site.reportCall()
    return placeholder()
  }
}

/// Makes an `async` closure of any arity that reports an issue and returns `placeholder`.
///
/// - Parameters:
///   - description: The endpoint's name; empty names it from where it is made.
///   - placeholder: The value to return, made for each call; nothing for a `Void` closure.
///   - fileID: The file ID of the caller, where calls are reported.
///   - filePath: The file path of the caller.
///   - function: The declaration the closure is made in.
///   - line: The line of the caller.
///   - column: The column of the caller.
/// - Returns: A closure that reports the call, then returns the placeholder.
@_disfavoredOverload
public func unimplemented<each Argument, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  placeholder: @autoclosure @escaping @Sendable () -> Result = (),
  fileID: String = #fileID,
  filePath: String = #filePath,
  function: String = #function,
  line: Int = #line,
  column: Int = #column
) -> @Sendable (repeat each Argument) async -> Result {
  let site = UnimplementedSite(description, function, SourceSite(fileID, filePath, line, column))
  return { (_: repeat each Argument) in
    site.reportCall()
    return placeholder()
  }
}

/// Makes a throwing closure of any arity that reports an issue and throws
/// ``UnimplementedError`` when called.
///
/// ```swift
/// static let testValue = APIClient(fetchUser: unimplemented("APIClient.fetchUser"))
/// ```
///
/// - Parameters:
///   - description: The endpoint's name; empty names it from where it is made.
///   - fileID: The file ID of the caller, where calls are reported.
///   - filePath: The file path of the caller.
///   - function: The declaration the closure is made in.
///   - line: The line of the caller.
///   - column: The column of the caller.
/// - Returns: A closure that reports the call, then throws.
@_disfavoredOverload
public func unimplemented<each Argument, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  fileID: String = #fileID,
  filePath: String = #filePath,
  function: String = #function,
  line: Int = #line,
  column: Int = #column
) -> @Sendable (repeat each Argument) throws -> Result {
  let site = UnimplementedSite(description, function, SourceSite(fileID, filePath, line, column))
  return { (_: repeat each Argument) in
    throw site.reportCall()
  }
}

/// Makes a throwing `async` closure of any arity that reports an issue and throws
/// ``UnimplementedError`` when called.
///
/// - Parameters:
///   - description: The endpoint's name; empty names it from where it is made.
///   - fileID: The file ID of the caller, where calls are reported.
///   - filePath: The file path of the caller.
///   - function: The declaration the closure is made in.
///   - line: The line of the caller.
///   - column: The column of the caller.
/// - Returns: A closure that reports the call, then throws.
@_disfavoredOverload
public func unimplemented<each Argument, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  fileID: String = #fileID,
  filePath: String = #filePath,
  function: String = #function,
  line: Int = #line,
  column: Int = #column
) -> @Sendable (repeat each Argument) async throws -> Result {
  let site = UnimplementedSite(description, function, SourceSite(fileID, filePath, line, column))
  return { (_: repeat each Argument) in
    throw site.reportCall()
  }
}

/// Makes a throwing closure of any arity that reports an issue and throws `error` when called.
///
/// ```swift
/// static let testValue = APIClient(
///   fetchUser: unimplemented("APIClient.fetchUser", throwing: URLError(.notConnectedToInternet))
/// )
/// ```
///
/// - Parameters:
///   - description: The endpoint's name; empty names it from where it is made.
///   - error: The error to throw, made for each call.
///   - fileID: The file ID of the caller, where calls are reported.
///   - filePath: The file path of the caller.
///   - function: The declaration the closure is made in.
///   - line: The line of the caller.
///   - column: The column of the caller.
/// - Returns: A closure that reports the call, then throws `error`.
@_disfavoredOverload
public func unimplemented<each Argument, Result, Failure: Error>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  throwing error: @autoclosure @escaping @Sendable () -> Failure,
  fileID: String = #fileID,
  filePath: String = #filePath,
  function: String = #function,
  line: Int = #line,
  column: Int = #column
) -> @Sendable (repeat each Argument) throws -> Result {
  let site = UnimplementedSite(description, function, SourceSite(fileID, filePath, line, column))
  return { (_: repeat each Argument) in
    site.reportCall()
    throw error()
  }
}

/// Makes a throwing `async` closure of any arity that reports an issue and throws `error`.
///
/// - Parameters:
///   - description: The endpoint's name; empty names it from where it is made.
///   - error: The error to throw, made for each call.
///   - fileID: The file ID of the caller, where calls are reported.
///   - filePath: The file path of the caller.
///   - function: The declaration the closure is made in.
///   - line: The line of the caller.
///   - column: The column of the caller.
/// - Returns: A closure that reports the call, then throws `error`.
@_disfavoredOverload
public func unimplemented<each Argument, Result, Failure: Error>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  throwing error: @autoclosure @escaping @Sendable () -> Failure,
  fileID: String = #fileID,
  filePath: String = #filePath,
  function: String = #function,
  line: Int = #line,
  column: Int = #column
) -> @Sendable (repeat each Argument) async throws -> Result {
  let site = UnimplementedSite(description, function, SourceSite(fileID, filePath, line, column))
  return { (_: repeat each Argument) in
    site.reportCall()
    throw error()
  }
}

/// Reports an issue now and returns `placeholder`: for a value, not a closure, that a test
/// double must have.
///
/// ```swift
/// static let testValue = Settings(theme: unimplemented("Settings.theme", placeholder: .light))
/// ```
///
/// The description is required and optional-typed so that, in a file that also imports
/// IssueReporting, the unqualified name means IssueReporting's own value form.
///
/// - Parameters:
///   - description: What is unimplemented; empty or nil names it from where it is used.
///   - placeholder: The value to return.
///   - fileID: The file ID of the caller, where the issue is reported.
///   - filePath: The file path of the caller.
///   - function: The declaration it is used in.
///   - line: The line of the caller.
///   - column: The column of the caller.
/// - Returns: `placeholder`.
@_disfavoredOverload
public func unimplemented<Result>(
  _ description: @autoclosure @escaping @Sendable () -> String?,
  placeholder: @autoclosure @escaping @Sendable () -> Result = (),
  fileID: String = #fileID,
  filePath: String = #filePath,
  function: String = #function,
  line: Int = #line,
  column: Int = #column
) -> Result {
  let described: @Sendable () -> String = { description() ?? "" }
  let site = UnimplementedSite(described, function, SourceSite(fileID, filePath, line, column))
  site.reportCall()
  return placeholder()
}
