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
  // The arguments change nothing: the endpoint without arguments reports the call.
  let call: @Sendable () throws -> R = unimplemented(
    endpoint,
    fileID: fileID,
    filePath: filePath,
    line: line,
    column: column
  )
  return { _, _ in try call() }
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
  let call: @Sendable () -> R = unimplemented(
    endpoint,
    placeholder: placeholder(),
    fileID: fileID,
    filePath: filePath,
    line: line,
    column: column
  )
  return { _, _ in call() }
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
  let call: @Sendable () -> Void = unimplemented(
    endpoint,
    fileID: fileID,
    filePath: filePath,
    line: line,
    column: column
  )
  return { _, _ in call() }
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
  // The arguments change nothing: the endpoint without arguments reports the call.
  let call: @Sendable () throws -> R = unimplemented(
    endpoint,
    fileID: fileID,
    filePath: filePath,
    line: line,
    column: column
  )
  return { _, _, _ in try call() }
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
  let call: @Sendable () -> R = unimplemented(
    endpoint,
    placeholder: placeholder(),
    fileID: fileID,
    filePath: filePath,
    line: line,
    column: column
  )
  return { _, _, _ in call() }
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
  let call: @Sendable () -> Void = unimplemented(
    endpoint,
    fileID: fileID,
    filePath: filePath,
    line: line,
    column: column
  )
  return { _, _, _ in call() }
}
