import TinyDependency
import TinyDependencyGraph
import TinyDependencyLifecycle

/// A server-shaped example: prepares an async connection pool and two services at start-up,
/// serves 10,000 concurrent in-process requests, each in a scope with its own request ID, then
/// shuts everything down in reverse order.
///
///     swift run TinyDependencyServerExample
@main
struct TinyDependencyServerExample {
  static let requestCount = 10_000

  static func main() async throws {
    var root = DependencyValues(context: .default)
    let log = LifecycleLog()
    root[LifecycleLogKey.self] = log

    // Start-up: the pool first, then both services side by side.
    try await root.prepare([UserServiceKey.self, OrderServiceKey.self])
    print("Start-up order:")
    for event in log.all { print("  \(event)") }

    // Requests: each in a scope of its own, reading the prepared services synchronously.
    let mismatches = await withDependencies(root) {
      await withTaskGroup(of: Int.self) { group in
        for id in 1...requestCount {
          group.addTask {
            await withDependencies {
              $0.requestID = RequestID(rawValue: id)
            } operation: {
              let response = await RequestHandler().handle(userID: id)
              return response.hasPrefix("r-\(id): ") ? 0 : 1
            }
          }
        }
        var total = 0
        for await mismatch in group { total += mismatch }
        return total
      }
    }
    print("Served \(requestCount) concurrent requests, \(mismatches) with a wrong request ID.")

    print("")
    print(root.graph.text, terminator: "")

    // Shutdown: each service before the pool it read.
    let report = try await root.shutdown()
    print("")
    print("Shutdown order: \(report.order.joined(separator: ", "))")
    for event in log.all.filter({ $0.hasPrefix("stopped") }) { print("  \(event)") }
    if mismatches != 0 { fatalError("\(mismatches) requests saw another request's ID") }
  }
}
