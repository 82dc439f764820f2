import TestSubprocess
import Testing
import TinyDependency
import TinyDependencyLifecycle

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// Issue 22, items 9 and 10: a request scope prepares its own connection and builds a
/// repository over it. The repository may be shared only up to the highest container that
/// holds every one of its inputs: never with the app, which has no connection, nor through the
/// app with another request.
@Suite("A value is shared only up to the highest container that holds every one of its inputs")
struct PreparedInputSharingTests {
  /// How a request scope gets its own connection.
  enum Preparing: String, CaseIterable, Sendable {
    /// `DependencyValues.current.prepare` inside a `withDependencies` scope.
    case inWithDependencies
    /// `withPreparedDependencies`.
    case withPreparedDependencies
    /// `prepare` on a container made from the app's, then bound.
    case onTheScopesContainer
  }

  /// Runs `read` in a request scope for `tenant` that prepared its own connection.
  static func request<R: Sendable>(
    _ tenant: String,
    of app: DependencyValues,
    preparing: Preparing,
    _ read: @Sendable () -> R
  ) async throws -> R {
    switch preparing {
    case .inWithDependencies:
      return try await withDependencies(app) {
        try await withDependencies {
          $0[PrefixKey.self] = tenant
        } operation: {
          try await DependencyValues.current.prepare([ConnectionKey.self])
          return read()
        }
      }
    case .withPreparedDependencies:
      return try await withDependencies(app) {
        try await withPreparedDependencies([ConnectionKey.self]) {
          $0[PrefixKey.self] = tenant
        } operation: {
          read()
        }
      }
    case .onTheScopesContainer:
      var scope = app
      scope[PrefixKey.self] = tenant
      try await scope.prepare([ConnectionKey.self])
      return withDependencies(scope) { read() }
    }
  }

  @Test(arguments: Preparing.allCases)
  func siblingRequestsEachGetARepositoryOverTheirOwnConnection(preparing: Preparing)
    async throws
  {
    let (app, _) = asyncContainer()
    var seen: [(connection: Resource, repository: Resource, report: Resource)] = []
    for tenant in ["tenant-a", "tenant-b"] {
      seen.append(
        try await Self.request(tenant, of: app, preparing: preparing) {
          let current = DependencyValues.current
          return (current[ConnectionKey.self], current[RepositoryKey.self], current[ReportKey.self])
        }
      )
    }
    #expect(seen[0].connection !== seen[1].connection)
    for (connection, repository, report) in seen {
      #expect(repository.uses.first === connection)
      // Two levels away from the connection: the report reads the repository.
      #expect(report.uses.first === repository)
    }
  }

  /// Concurrent requests, each with its own connection, read the report in a scope inside the
  /// request first: it goes up to the request, and no further.
  @Test func concurrentRequestsKeepTheirRepositoriesApart() async throws {
    let (app, _) = asyncContainer()
    let mixedUp = try await withThrowingTaskGroup(of: Int.self) { group in
      for index in 0..<100 {
        group.addTask {
          var scope = app
          scope[PrefixKey.self] = "tenant-\(index)"
          try await scope.prepare([ConnectionKey.self])
          let inner = withDependencies(scope) {
            withDependencies {
              $0[OtherRequestKey.self] = index
            } operation: {
              DependencyValues.current[ReportKey.self]
            }
          }
          let report = scope[ReportKey.self]
          let connection = scope[ConnectionKey.self]
          return inner === report && report.uses[0].uses[0] === connection ? 0 : 1
        }
      }
      return try await group.reduce(0, +)
    }
    #expect(mixedUp == 0)
  }

  /// What the rule must not cost: a connection the app prepared is the app's, so a repository
  /// a request builds over it is shared with the app and the other requests.
  @Test func aRepositoryOverTheAppsConnectionIsSharedWithTheApp() async throws {
    let (app, _) = asyncContainer()
    try await app.prepare([ConnectionKey.self])
    let repositories = withDependencies(app) {
      ["tenant-a", "tenant-b"].map { tenant in
        withDependencies {
          $0[PrefixKey.self] = tenant
        } operation: {
          DependencyValues.current[ReportKey.self].uses[0]
        }
      }
    }
    #expect(repositories[0] === repositories[1])
    #expect(app[RepositoryKey.self] === repositories[0])
    #expect(repositories[0].uses.first === app[ConnectionKey.self])
  }

  @Test func aRepositoryIsShutDownWithItsRequestsConnection() async throws {
    let (app, log) = asyncContainer()
    var scope = app
    scope[PrefixKey.self] = "tenant-a"
    try await scope.prepare([ConnectionKey.self])
    let report = scope[ReportKey.self]
    try await scope.shutdown()
    #expect(report.shutdownCount == 1)
    #expect(report.uses[0].shutdownCount == 1)
    let events = log.all
    let connection = try #require(events.firstIndex(of: "shutdown Connection"))
    let repository = try #require(events.firstIndex(of: "shutdown done Repository"))
    #expect(repository < connection, "\(events)")
  }

  #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test(.oneExitTestAtATime)
    func theAppNeverGetsARepositoryOverARequestsConnection() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let (app, _) = asyncContainer()
        var scope = app
        scope[PrefixKey.self] = "tenant-a"
        try await scope.prepare([ConnectionKey.self])
        _ = scope[RepositoryKey.self]
        _ = app[RepositoryKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("ConnectionKey is an async key that was not prepared"))
    }

    @Test(.oneExitTestAtATime)
    func aSiblingThatPreparedNothingDoesNotGetAnotherRequestsRepository() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let (app, _) = asyncContainer()
        try await withDependencies(app) {
          try await withDependencies {
            $0[PrefixKey.self] = "tenant-a"
          } operation: {
            try await DependencyValues.current.prepare([ConnectionKey.self])
            _ = DependencyValues.current[ReportKey.self]
          }
          withDependencies {
            $0[PrefixKey.self] = "tenant-b"
          } operation: {
            _ = DependencyValues.current[RepositoryKey.self]
          }
        }
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("ConnectionKey is an async key that was not prepared"))
    }

    /// A child made with `withDependencies(from:)` reads in a scope below the request's: the
    /// repository it builds goes up to the request, not past it.
    @Test(.oneExitTestAtATime)
    func aRepositoryBuiltThroughWithDependenciesFromStaysInTheRequest() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let (app, _) = asyncContainer()
        var scope = app
        scope[PrefixKey.self] = "tenant-a"
        try await scope.prepare([ConnectionKey.self])
        let handler = withDependencies(scope) { RequestHandler() }
        let (fromChild, inRequest) = withDependencies(app) {
          let fromChild = withDependencies(from: handler) {
            $0[OtherRequestKey.self] = 1
          } operation: {
            DependencyValues.current[RepositoryKey.self]
          }
          return (fromChild, scope[RepositoryKey.self])
        }
        guard fromChild === inRequest else { return }
        _ = "shared with the request\n".withCString { write(2, $0, strlen($0)) }
        _ = app[RepositoryKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("shared with the request"))
      #expect(message.contains("ConnectionKey is an async key that was not prepared"))
    }

    @Test(.oneExitTestAtATime)
    func aRequestsRepositoryCantBeReadInTheRequestAfterItsShutdown() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let (app, _) = asyncContainer()
        var scope = app
        scope[PrefixKey.self] = "tenant-a"
        try await scope.prepare([ConnectionKey.self])
        _ = scope[RepositoryKey.self]
        try await scope.shutdown()
        _ = scope[RepositoryKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("RepositoryKey was read after `shutdown()`"))
    }

    @Test(.oneExitTestAtATime)
    func aRequestsRepositoryCantBeReadInTheAppAfterTheRequestsShutdown() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let (app, _) = asyncContainer()
        var scope = app
        scope[PrefixKey.self] = "tenant-a"
        try await scope.prepare([ConnectionKey.self])
        _ = scope[ReportKey.self]
        try await scope.shutdown()
        _ = app[RepositoryKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("ConnectionKey is an async key that was not prepared"))
    }
  #endif
}

/// A request's database connection, which each request prepares for itself.
enum ConnectionKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Resource { try await buildResource("Connection") }
}

/// A repository over the current connection: synchronous, built on first read.
enum RepositoryKey: DependencyKey {
  static var defaultValue: Resource {
    let values = DependencyValues.current
    return Resource(
      "Repository",
      settings: values.asyncSettings,
      uses: [values[ConnectionKey.self]]
    )
  }
}

/// Two levels away from the connection: reads the repository.
enum ReportKey: DependencyKey {
  static var defaultValue: Resource {
    let values = DependencyValues.current
    return Resource("Report", settings: values.asyncSettings, uses: [values[RepositoryKey.self]])
  }
}

/// An object made in a request scope, which a child is made from.
final class RequestHandler {
  @Dependency(PrefixKey.self) var tenant
}
