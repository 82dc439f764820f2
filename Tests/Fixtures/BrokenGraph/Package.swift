// swift-tools-version: 6.1
import PackageDescription

// A package with a broken dependency graph, for the dependency-graph plugin's tests: a key
// without a test value, a cycle and an unset input. The root package is three folders up;
// SwiftPM names a path dependency after its folder, which differs between clones.
let rootFolder = Context.packageDirectory.split(separator: "/").dropLast(3).last.map(String.init)!

let package = Package(
  name: "BrokenGraph",
  platforms: [.macOS(.v12), .iOS(.v15)],
  products: [
    .executable(name: "BrokenGraphCheck", targets: ["BrokenGraphCheck"])
  ],
  dependencies: [.package(path: "../../..")],
  targets: [
    .target(
      name: "Features",
      dependencies: [.product(name: "TinyDependency", package: rootFolder)]
    ),
    .executableTarget(
      name: "BrokenGraphCheck",
      dependencies: [
        "Features",
        .product(name: "TinyDependencyValidation", package: rootFolder),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
