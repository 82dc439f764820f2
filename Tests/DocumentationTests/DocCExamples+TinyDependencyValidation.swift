// Compiled copies of the code blocks in the TinyDependencyValidation catalog. DocCArticlesTests
// checks that every ```swift block of the catalogs appears in a DocCExamples+ file line for line;
// edit both together.

import Foundation
import Testing
import TinyDependency
import TinyDependencyGraph
import TinyDependencyValidation

/// The API client's base address, for the examples of the command-line check.
enum APIClientKey: DependencyKey {
  static let defaultValue = "https://api.example.com"
  static let testValue = "test://api"
}

// MARK: - Checking the graph before the app runs

/// A check executable's `main.swift`, as a function: it exits, so nothing calls it.
@MainActor
func appGraphMain() -> Never {
  // Sources/AppGraph/main.swift
  DependencyCheck.main(keys: [APIClientKey.self, DatabaseKey.self, CartKey.self])
}

@MainActor
func invoiceGraphMain() -> Never {
  DependencyCheck.main(keys: [InvoiceRendererKey.self], mainActorKeys: []) {
    $0[TenantKey.self] = "acme"
  }
}

func writeRuntimeGraph(to path: String) throws {
  let json = DependencyCheck.json(of: DependencyValues.current.graph)
  try json.write(toFile: path, atomically: true, encoding: .utf8)
}

@Suite("The command-line check's examples work as the article says")
struct CheckingTheGraphExamples {
  @MainActor
  @Test func theAppGraphIsClean() {
    let outcome = DependencyCheck.run(["--format", "json"], keys: [APIClientKey.self])
    #expect(outcome.exitCode == 0, "\(outcome.errors)")
  }

  @Test func theRuntimeGraphIsWrittenInTheSchema() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("runtime-graph-\(UUID().uuidString).json").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try withDependencies {
      $0.context = .test
    } operation: {
      _ = DependencyValues.current[APIClientKey.self]
      try writeRuntimeGraph(to: path)
    }
    let written = try String(contentsOfFile: path, encoding: .utf8)
    #expect(written.hasPrefix("{\n  \"schemaVersion\": 1,\n"))
  }
}
