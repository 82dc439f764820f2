// swift-tools-version: 6.1
import PackageDescription

// The one-file shims of the migration guide's "Switching a library", in a graph without
// swift-dependencies: `Dependencies` and `DependenciesTestSupport` re-export the face, so a test
// file written for swift-dependencies builds and runs with its imports unchanged
// (Tests/ShimmedTests). The graph has no ConcurrencyExtras, so the `Dependencies` shim
// re-exports TinyDependencyConcurrency for `LockIsolated`, as swift-dependencies re-exports
// ConcurrencyExtras.

// The root package, three folders up. SwiftPM names a path dependency after its folder, which
// differs between clones, so the name is read from the path.
let rootFolder = Context.packageDirectory.split(separator: "/").dropLast(3).last.map(String.init)!

let package = Package(
  name: "DependenciesShim",
  platforms: [.iOS(.v13), .macOS(.v10_15), .tvOS(.v13), .watchOS(.v6)],
  dependencies: [.package(path: "../../..")],
  targets: [
    .target(
      name: "Dependencies",
      dependencies: [
        .product(name: "TinyDependencyFace", package: rootFolder),
        .product(name: "TinyDependencyConcurrency", package: rootFolder),
      ]
    ),
    .target(
      name: "DependenciesTestSupport",
      dependencies: [
        "Dependencies",
        .product(name: "TinyDependencyFaceTestSupport", package: rootFolder),
      ]
    ),
    .testTarget(name: "ShimmedTests", dependencies: ["Dependencies", "DependenciesTestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
