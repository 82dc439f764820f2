public import TinyDependency

extension DependencyValues {
  /// Checks a condition during development: `Swift.assert` live and in previews.
  ///
  /// ```swift
  /// @Dependency(\.assert) var assert
  /// assert(items.count <= limit, "too many items")
  /// ```
  ///
  /// In tests a failed condition records an issue with the message, and the test goes on, so a
  /// test can show that code asserts.
  public var assert: any AssertionEffect {
    get { self[AssertKey.self] }
    set { self[AssertKey.self] = newValue }
  }

  /// Checks a condition in every build: `Swift.precondition` live and in previews.
  ///
  /// In tests a failed condition records an issue with the message, and the test goes on.
  public var precondition: any AssertionEffect {
    get { self[PreconditionKey.self] }
    set { self[PreconditionKey.self] = newValue }
  }

  /// Reports a failure during development: the `\.assert` dependency with a false condition.
  public var assertionFailure: any AssertionFailureEffect {
    AssertionFailure(base: assert)
  }
}

/// Checks a condition: what `\.assert` and
/// `\.precondition` hold.
public protocol AssertionEffect: Sendable {
  /// Checks `condition`; on failure, stops (live) or records an issue (tests) with `message`.
  ///
  /// - Parameters:
  ///   - condition: The condition to check.
  ///   - message: What failed.
  ///   - fileID: The file ID of the caller.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  func callAsFunction(
    _ condition: @autoclosure () -> Bool,
    _ message: @autoclosure () -> String,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt
  )
}

extension AssertionEffect {
  /// Checks `condition` at the caller's location.
  ///
  /// - Parameters:
  ///   - condition: The condition to check.
  ///   - message: What failed.
  ///   - fileID: The file ID of the caller.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  @_disfavoredOverload
  public func callAsFunction(
    _ condition: @autoclosure () -> Bool,
    _ message: @autoclosure () -> String = "",
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line
  ) {
    callAsFunction(condition(), message(), fileID: fileID, filePath: filePath, line: line)
  }
}

/// Reports a failure: what `\.assertionFailure` holds.
public protocol AssertionFailureEffect: Sendable {
  /// Stops (live) or records an issue (tests) with `message`.
  ///
  /// - Parameters:
  ///   - message: What failed.
  ///   - fileID: The file ID of the caller.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  func callAsFunction(
    _ message: @autoclosure () -> String,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt
  )
}

extension AssertionFailureEffect {
  /// Reports a failure at the caller's location.
  ///
  /// - Parameters:
  ///   - message: What failed.
  ///   - fileID: The file ID of the caller.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  @_disfavoredOverload
  public func callAsFunction(
    _ message: @autoclosure () -> String = "",
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line
  ) {
    callAsFunction(message(), fileID: fileID, filePath: filePath, line: line)
  }
}

/// `Swift.assert`, or `Swift.precondition`.
struct LiveAssertion: AssertionEffect {
  let stopsInEveryBuild: Bool

  func callAsFunction(
    _ condition: @autoclosure () -> Bool,
    _ message: @autoclosure () -> String,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt
  ) {
    if stopsInEveryBuild {
      Swift.precondition(condition(), message(), file: filePath, line: line)
    } else {
      Swift.assert(condition(), message(), file: filePath, line: line)
    }
  }
}

/// Records a failed condition as an issue of the running test.
struct RecordingAssertion: AssertionEffect {
  func callAsFunction(
    _ condition: @autoclosure () -> Bool,
    _ message: @autoclosure () -> String,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt
  ) {
    guard !condition() else { return }
    let text = message()
    reportIssue(
      text.isEmpty ? "Assertion failed" : "Assertion failed: \(text)",
      fileID: "\(fileID)",
      filePath: "\(filePath)",
      line: Int(line)
    )
  }
}

/// An assertion failure through an ``AssertionEffect``.
struct AssertionFailure: AssertionFailureEffect {
  let base: any AssertionEffect

  func callAsFunction(
    _ message: @autoclosure () -> String,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt
  ) {
    base(false, message(), fileID: fileID, filePath: filePath, line: line)
  }
}

/// The key of `\.assert`.
enum AssertKey: DependencyKey {
  static let defaultValue: any AssertionEffect = LiveAssertion(stopsInEveryBuild: false)
  static let testValue: any AssertionEffect = RecordingAssertion()
}

/// The key of `\.precondition`.
enum PreconditionKey: DependencyKey {
  static let defaultValue: any AssertionEffect = LiveAssertion(stopsInEveryBuild: true)
  static let testValue: any AssertionEffect = RecordingAssertion()
}
