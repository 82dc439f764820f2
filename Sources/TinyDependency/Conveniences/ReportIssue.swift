/// Records an issue for the running test, or writes it to standard error outside tests.
///
/// Use it in test doubles of your own: under Swift Testing it is an issue of the running test,
/// under XCTest a failure of the running test method (with TinyDependencyTesting linked into the
/// test target), and elsewhere a line on standard error that starts with the call's site, as
/// swift-issue-reporting prints it: `App/Analytics.swift:12: message`. It never stops the
/// process. In a file that also imports IssueReporting, the unqualified name means
/// IssueReporting's.
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
@_disfavoredOverload
public func reportIssue(
  _ message: String,
  fileID: String = #fileID,
  filePath: String = #filePath,
  line: Int = #line,
  column: Int = #column
) {
  IssueReporter.report(message, at: SourceSite(fileID, filePath, line, column))
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
  let description: @Sendable () -> String
  let function: String
  let site: SourceSite

  init(_ description: @escaping @Sendable () -> String, _ function: String, _ site: SourceSite) {
    (self.description, self.function, self.site) = (description, function, site)
  }

  /// Reports a call of the endpoint, naming the test it happened in, and returns the error a
  /// throwing endpoint throws.
  @discardableResult
  func reportCall() -> UnimplementedError {
    var endpoint = description()
    if endpoint.isEmpty {
      endpoint = "the closure made in \(function) at \(site)"
    }
    let test = UnboundRoots.provider?.currentRootName().map { " in test \($0)" } ?? ""
    IssueReporter.report(
      "Unimplemented: \(endpoint) was called\(test). Override it for this test, or give the "
        + "test double an implementation.",
      at: site
    )
    return UnimplementedError(endpoint: endpoint)
  }
}
