// Compiled copies of the code blocks in Using-explicit-containers-in-servers.md and
// Reading-the-dependency-graph.md. DocCArticlesTests checks that every ```swift block of the
// catalogs appears in a DocCExamples+ file line for line; edit both together.

import TinyDependency
import TinyDependencyGraph
import TinyDependencyLifecycle

// MARK: - Using explicit containers in servers

enum TenantKey: DependencyInputKey {
  typealias Value = String
}

struct InvoiceRenderer: Sendable {
  var tenant: String
  var greeter: Greeter

  func render(cents: Int) -> String {
    "\(tenant): \(greeter.greet("customer")) You owe \(cents) cents."
  }
}

enum InvoiceRendererKey: DependencyKey {
  static var defaultValue: InvoiceRenderer {
    let values = DependencyValues.current
    return InvoiceRenderer(tenant: values[TenantKey.self], greeter: values.greeter)
  }
  // Built the same way in tests, from the test values of what it reads.
  static var testValue: InvoiceRenderer { defaultValue }
}

extension DependencyValues {
  var invoiceRenderer: InvoiceRenderer {
    get { self[InvoiceRendererKey.self] }
    set { self[InvoiceRendererKey.self] = newValue }
  }
}

func renderInvoice(tenant: String?, cents: Int) -> String? {
  var request = DependencyValues(context: .default)
  if let tenant { request[TenantKey.self] = tenant }
  guard request.unsetInputs(among: [TenantKey.self]).isEmpty else { return nil }
  return request.invoiceRenderer.render(cents: cents)
  // renderInvoice(tenant: "acme", cents: 250):
  // "acme: Hello, customer! You owe 250 cents."
}

struct InvoiceHandler {
  @Dependency(\.invoiceRenderer) var renderer

  func respond(cents: Int) async -> String {
    renderer.render(cents: cents)
  }
}

func serveInvoice(tenant: String, cents: Int) async -> String {
  var request = DependencyValues(context: .default)
  request[TenantKey.self] = tenant
  return await withDependencies(request) {
    await InvoiceHandler().respond(cents: cents)
  }
}

/// Connections to a database: expensive, so one per app rather than one per request.
final class ConnectionPool: Sendable {}

enum ConnectionPoolKey: DependencyKey {
  static var defaultValue: ConnectionPool { ConnectionPool() }
  static var testValue: ConnectionPool { ConnectionPool() }
}

func poolsOfTwoRequests() -> Bool {
  let app = DependencyValues(context: .default)  // made once, at start-up
  var first = app
  first[TenantKey.self] = "acme"
  var second = app
  second[TenantKey.self] = "zeta"
  // The pool reads nothing the requests set, so the one the first request built is shared.
  return first[ConnectionPoolKey.self] === second[ConnectionPoolKey.self]  // true
}

// MARK: - Reading the dependency graph

func invoiceGraph() -> DependencyGraph {
  DependencyGraph.trace([InvoiceRendererKey.self]) {
    $0[TenantKey.self] = "acme"
  }
}

func invoiceGraphWithoutTenant() -> DependencyGraph {
  DependencyGraph.trace([InvoiceRendererKey.self])
}

func builtSoFar() -> DependencyGraph {
  var values = DependencyValues(context: .test)
  values[TenantKey.self] = "acme"
  _ = values.invoiceRenderer.render(cents: 1)
  return values.graph  // the same nodes and edges as invoiceGraph()
}
