// swift-tools-version: 6.1
import PackageDescription

// TinyDependency beside Point-Free's packages, with local stand-ins for them (StandIns/), so CI
// needs no download:
// - Neighbor imports TinyDependency with IssueReporting and ConcurrencyExtras and uses every name
//   both declare, unqualified; OursOnly uses the same names with TinyDependency's imports alone.
// - SwitchedLibrary is a library moved from swift-dependencies as the migration guide's
//   "Switching a library" says: it keeps `liveValue`, IssueReporting and ConcurrencyExtras.
// - RealDependenciesUser puts a target named `Dependencies` in the same graph.
// - NeighborCheck runs them and fails unless each name meant what it should.

// The root package, three folders up. SwiftPM names a path dependency after its folder, which
// differs between clones, so the name is read from the path.
let rootFolder = Context.packageDirectory.split(separator: "/").dropLast(3).last.map(String.init)!

let package = Package(
  name: "PointFreeNeighbors",
  platforms: [.iOS(.v13), .macOS(.v10_15), .tvOS(.v13), .watchOS(.v6)],
  dependencies: [
    .package(path: "../../.."),
    .package(path: "StandIns/xctest-dynamic-overlay"),
    .package(path: "StandIns/swift-concurrency-extras"),
    .package(path: "StandIns/swift-dependencies"),
  ],
  targets: [
    .target(
      name: "Neighbor",
      dependencies: [
        .product(name: "TinyDependency", package: rootFolder),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
      ]
    ),
    .target(
      name: "OursOnly",
      dependencies: [
        .product(name: "TinyDependency", package: rootFolder),
        .product(name: "TinyDependencyConcurrency", package: rootFolder),
      ]
    ),
    .target(
      name: "SwitchedLibrary",
      dependencies: [
        .product(name: "TinyDependencyFace", package: rootFolder),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
      ]
    ),
    .target(
      name: "RealDependenciesUser",
      dependencies: [.product(name: "Dependencies", package: "swift-dependencies")]
    ),
    .executableTarget(
      name: "NeighborCheck",
      dependencies: [
        "Neighbor", "OursOnly", "SwitchedLibrary",
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
