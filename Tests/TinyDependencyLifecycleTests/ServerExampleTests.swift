import TestSubprocess
import Testing

@Suite("The server example prepares, serves and shuts down in order")
struct ServerExampleTests {
  @Test func runsToTheEndAndPrintsStartUpAndShutdownInGraphOrder() async throws {
    let result = try await run(
      try builtProduct("TinyDependencyServerExample"),
      environment: ["TINY_DEPENDENCY_CONTEXT": nil]
    )
    #expect(result.status == 0, "\(result.standardError)")
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    let pool = try #require(lines.firstIndex(of: "  started ConnectionPool (4 connections)"))
    #expect(
      lines[pool + 1...pool + 2].sorted() == ["  started OrderService", "  started UserService"]
    )
    #expect(lines.contains("Served 10000 concurrent requests, 0 with a wrong request ID."))
    #expect(lines.contains("UserServiceKey (shared)"))
    let shutdown = try #require(lines.first { $0.hasPrefix("Shutdown order: ") })
    #expect(shutdown.hasSuffix(", ConnectionPoolKey"))
    #expect(lines.last == "  stopped ConnectionPool")
  }
}
