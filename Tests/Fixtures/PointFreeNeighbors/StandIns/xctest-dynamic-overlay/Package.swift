// swift-tools-version: 6.1
import PackageDescription

// A stand-in for xctest-dynamic-overlay's IssueReporting: the public names TinyDependency also
// declares, with that package's signatures, so the fixture builds without a download.
let package = Package(
  name: "xctest-dynamic-overlay",
  products: [.library(name: "IssueReporting", targets: ["IssueReporting"])],
  targets: [.target(name: "IssueReporting")],
  swiftLanguageModes: [.v6]
)
