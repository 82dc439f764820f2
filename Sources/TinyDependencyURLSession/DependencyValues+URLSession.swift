#if !os(WASI)
  #if canImport(FoundationNetworking)
    public import FoundationNetworking
    import Foundation
  #else
    public import Foundation
  #endif
  public import TinyDependency

  extension DependencyValues {
    /// The session to make network requests with: `URLSession.shared` live and in previews.
    ///
    /// In tests, a read without an override gets a session whose every request records an issue
    /// naming `\.urlSession` and fails, so no test reaches the network by accident. Override it
    /// with a session whose `URLSessionConfiguration.protocolClasses` answers the requests.
    ///
    /// It lives in a product of its own, TinyDependencyURLSession: on Linux `URLSession` comes
    /// from FoundationNetworking, which an app that does not read this dependency should not
    /// link.
    public var urlSession: URLSession {
      get { self[URLSessionKey.self] }
      set { self[URLSessionKey.self] = newValue }
    }
  }

  /// The key of `\.urlSession`.
  enum URLSessionKey: DependencyKey {
    static var defaultValue: URLSession { .shared }
    static var testValue: URLSession {
      let configuration = URLSessionConfiguration.ephemeral
      configuration.protocolClasses = [UnimplementedURLProtocol.self]
      return URLSession(configuration: configuration)
    }
  }

  /// Answers every request of the test session: records an issue, then fails the request.
  final class UnimplementedURLProtocol: URLProtocol {
    /// The error a request of the test session fails with.
    struct UnimplementedRequest: Error {}

    override class func canInit(with request: URLRequest) -> Bool { true }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
      let url = request.url.map { "\($0)" } ?? "a request without a URL"
      IssueReporter.report(
        "Unimplemented: @Dependency(\\.urlSession) was used in a test without an override to load "
          + "\(url). Override it for the test: `$0.urlSession = URLSession(configuration: …)` "
          + "with protocolClasses that answer the request."
      )
      client?.urlProtocol(self, didFailWithError: UnimplementedRequest())
    }

    override func stopLoading() {}
  }
#endif
