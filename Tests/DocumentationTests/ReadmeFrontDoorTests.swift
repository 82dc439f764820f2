import Foundation
import Testing

/// Issue 45, item 13: README.md is the front door: short, and it names every product and what
/// the latest rounds added, with the rows of "Compared" for them.
@Suite("README.md names every product and the latest features, in under 350 lines")
struct ReadmeFrontDoorTests {
  private static func read(_ path: String) throws -> String {
    try String(
      contentsOf: DocumentationTests.packageRoot.appendingPathComponent(path),
      encoding: .utf8
    )
  }

  @Test func itStaysUnder350Lines() throws {
    let lines = try Self.read("README.md").filter { $0 == "\n" }.count
    #expect(lines < 350, "README.md has \(lines) lines")
  }

  @Test func itListsEveryLibraryProduct() throws {
    let readme = try Self.read("README.md")
    let manifest = try Self.read("Package.swift")
    let products = manifest.split(separator: "\n").compactMap { line -> String? in
      guard let start = line.range(of: ".library(name: \"") else { return nil }
      return String(line[start.upperBound...].prefix { $0 != "\"" })
    }
    #expect(products.count >= 10)
    let installation = readme.components(separatedBy: "## Quick start")[0]
    for product in products {
      #expect(installation.contains("`\(product)`"), "README.md's products omit \(product)")
    }
  }

  @Test func itShowsThisRoundsFeaturesAndTheirComparedRows() throws {
    let readme = try Self.read("README.md")
    for feature in [
      "DependencyScope", "DependencyFactory", "global actor", "TinyDependencyFace",
      "TinyDependencyConcurrency",
    ] {
      #expect(readme.contains(feature), "README.md never mentions \(feature)")
    }
    let compared = readme.components(separatedBy: "### Compared")[1]
      .components(separatedBy: "## Installation")[0]
    for row in [
      "| named scopes with parents, captive reads stopped |",
      "| factories with run-time arguments |",
      "| graph checked before run time, in CI |",
      "| beside Point-Free's packages |",
    ] {
      #expect(compared.contains(row), "Compared has no row \(row)")
    }
  }
}
