// swift-tools-version: 6.1
import PackageDescription

// A stand-in for swift-dependencies: a target named `Dependencies` in the same graph as
// TinyDependency, which declares none (SwiftPM rejects two targets of one name in a graph).
let package = Package(
  name: "swift-dependencies",
  products: [.library(name: "Dependencies", targets: ["Dependencies"])],
  targets: [.target(name: "Dependencies")],
  swiftLanguageModes: [.v6]
)
