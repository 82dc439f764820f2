// swift-tools-version: 6.1
import PackageDescription

// A stand-in for swift-concurrency-extras: the three types TinyDependencyConcurrency also
// declares, with that package's signatures, so the fixture builds without a download.
let package = Package(
  name: "swift-concurrency-extras",
  products: [.library(name: "ConcurrencyExtras", targets: ["ConcurrencyExtras"])],
  targets: [.target(name: "ConcurrencyExtras")],
  swiftLanguageModes: [.v6]
)
