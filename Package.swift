// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "TinyDependency",
  platforms: [
    .iOS(.v15),
    .macOS(.v12),
    .tvOS(.v15),
    .watchOS(.v8),
    .visionOS(.v1),
  ],
  products: [
    .library(name: "TinyDependency", targets: ["TinyDependency"]),
    .library(name: "TinyDependencyGraph", targets: ["TinyDependencyGraph"]),
    .library(name: "TinyDependencyTesting", targets: ["TinyDependencyTesting"]),
    .library(name: "TinyDependencyBuiltins", targets: ["TinyDependencyBuiltins"]),
    // `\.urlSession` alone: on Linux URLSession needs FoundationNetworking (about 16 MB), which
    // an app that does not read it should not link.
    .library(name: "TinyDependencyURLSession", targets: ["TinyDependencyURLSession"]),
    .library(name: "TinyDependencyLifecycle", targets: ["TinyDependencyLifecycle"]),
    // The probe, the examples and the benchmark are executable targets, not products: `swift run`
    // runs them here, and a package that depends on this one has no use for them.
  ],
  targets: [
    .target(name: "TinyDependency", exclude: ["README.md"]),
    .target(name: "TinyDependencyGraph", dependencies: ["TinyDependency"]),
    .target(
      name: "TinyDependencyTesting",
      dependencies: ["TinyDependency", "TinyDependencyGraph"]
    ),
    .target(name: "TinyDependencyBuiltins", dependencies: ["TinyDependency"]),
    .target(name: "TinyDependencyURLSession", dependencies: ["TinyDependency"]),
    .target(name: "TinyDependencyLifecycle", dependencies: ["TinyDependency"]),
    .executableTarget(name: "DependencyContextProbe", dependencies: ["TinyDependency"]),
    // Runs the package's executables in a child process, for the two test targets that do.
    .target(name: "TestSubprocess", path: "Tests/Subprocess"),
    .executableTarget(
      name: "TinyDependencyExample",
      dependencies: ["TinyDependency", "TinyDependencyGraph", "TinyDependencyLifecycle"]
    ),
    .executableTarget(
      name: "TinyDependencyServerExample",
      dependencies: ["TinyDependency", "TinyDependencyGraph", "TinyDependencyLifecycle"]
    ),
    .executableTarget(
      name: "TinyDependencyBenchmarks",
      dependencies: [
        "TinyDependency", "TinyDependencyBuiltins", "TinyDependencyGraph",
        "TinyDependencyLifecycle",
      ]
    ),
    .testTarget(
      name: "TinyDependencyTests",
      dependencies: [
        "TinyDependency", "TinyDependencyGraph", "DependencyContextProbe", "TinyDependencyExample",
        "TestSubprocess",
      ]
    ),
    .testTarget(
      name: "TinyDependencyLifecycleTests",
      dependencies: [
        "TinyDependency", "TinyDependencyGraph", "TinyDependencyLifecycle",
        "TinyDependencyServerExample", "TestSubprocess",
      ]
    ),
    .testTarget(
      name: "TinyDependencyTestingTests",
      dependencies: [
        "TinyDependency", "TinyDependencyGraph", "TinyDependencyTesting",
        "TinyDependencyLifecycle",
      ]
    ),
    .testTarget(
      name: "TinyDependencyBuiltinsTests",
      dependencies: ["TinyDependency", "TinyDependencyBuiltins", "TinyDependencyTesting"]
    ),
    .testTarget(name: "CompatibilityTests", dependencies: ["TinyDependency"]),
    // A file moved from swift-dependencies imports what these suites import, and nothing else.
    .testTarget(
      name: "MigrationTests",
      dependencies: [
        "TinyDependency", "TinyDependencyBuiltins", "TinyDependencyTesting",
        "TinyDependencyURLSession",
      ],
      exclude: ["AUDIT.md"]
    ),
    .testTarget(
      name: "DocumentationTests",
      dependencies: [
        "TinyDependency", "TinyDependencyGraph", "TinyDependencyTesting", "TinyDependencyBuiltins",
        "TinyDependencyLifecycle", "TinyDependencyExample",
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

// The compatibility suite is compiled as a user's target would be, without these flags.
for target in package.targets where target.name != "CompatibilityTests" {
  var settings = target.swiftSettings ?? []
  // Every existential is spelled `any`.
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  // Imports are internal unless marked otherwise, so nothing leaks into the public interface.
  settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
  // A member is visible only where its module is imported.
  settings.append(.enableUpcomingFeature("MemberImportVisibility"))
  target.swiftSettings = settings
}
