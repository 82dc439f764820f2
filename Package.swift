// swift-tools-version: 6.1
import PackageDescription

/// Where SwiftUI does not exist, and the SwiftUI product compiles against a stand-in instead.
let nonApplePlatforms: [Platform] = [.linux, .android, .windows, .wasi, .openbsd]

let package = Package(
  name: "TinyDependency",
  // Where task-locals and the concurrency runtime begin; what needs more says `@available`.
  platforms: [
    .iOS(.v13),
    .macOS(.v10_15),
    .tvOS(.v13),
    .watchOS(.v6),
    .visionOS(.v1),
  ],
  products: [
    .library(name: "TinyDependency", targets: ["TinyDependency"]),
    .library(name: "TinyDependencyGraph", targets: ["TinyDependencyGraph"]),
    .library(name: "TinyDependencyValidation", targets: ["TinyDependencyValidation"]),
    .library(name: "TinyDependencyTesting", targets: ["TinyDependencyTesting"]),
    .library(name: "TinyDependencyBuiltins", targets: ["TinyDependencyBuiltins"]),
    // `\.urlSession` alone: on Linux URLSession needs FoundationNetworking (about 16 MB), which
    // an app that does not read it should not link.
    .library(name: "TinyDependencyURLSession", targets: ["TinyDependencyURLSession"]),
    .library(name: "TinyDependencyLifecycle", targets: ["TinyDependencyLifecycle"]),
    // `DependencyFactory`: values made from run-time arguments, above the core's seam.
    .library(name: "TinyDependencyFactories", targets: ["TinyDependencyFactories"]),
    // Collections that modules contribute to, built above the core: every member is a key.
    .library(name: "TinyDependencyCollections", targets: ["TinyDependencyCollections"]),
    // `LockIsolated`, `ActorIsolated`, `UncheckedSendable`, for code that does not import
    // ConcurrencyExtras: a module of their own, so a file that imports both is not ambiguous.
    .library(name: "TinyDependencyConcurrency", targets: ["TinyDependencyConcurrency"]),
    // swift-dependencies' face (`DependencyKey.liveValue`). Not named `Dependencies`: SwiftPM
    // rejects a graph where two packages declare targets of the same name.
    .library(name: "TinyDependencyFace", targets: ["TinyDependencyFace"]),
    .library(name: "TinyDependencyFaceTestSupport", targets: ["TinyDependencyFaceTestSupport"]),
    // `.dependencies { … }` on views and scenes, `EnvironmentValues.dependencies`, the
    // `.dependencies` preview trait: SwiftUI apart from the core.
    .library(name: "TinyDependencySwiftUI", targets: ["TinyDependencySwiftUI"]),
    // `swift package dependency-graph --product AppGraph`: builds and runs a graph check.
    .plugin(name: "DependencyGraphPlugin", targets: ["DependencyGraphPlugin"]),
    // The example app and its graph check: products so that the dependency-graph plugin can
    // build them (`swift package dependency-graph --product TinyDependencyExampleGraph`).
    .executable(name: "TinyDependencyExample", targets: ["TinyDependencyExampleMain"]),
    .executable(name: "TinyDependencyExampleGraph", targets: ["TinyDependencyExampleGraph"]),
    // The probe, the server example and the benchmark are executable targets, not products:
    // `swift run` runs them here, and a package that depends on this one has no use for them.
  ],
  targets: [
    .target(name: "TinyDependency", exclude: ["README.md"]),
    // The graph knows collections: their marker keys stay out, their members show under them.
    .target(
      name: "TinyDependencyGraph",
      dependencies: ["TinyDependency", "TinyDependencyCollections"]
    ),
    // The checks know collections too: an empty one, a duplicate map key, a member not added.
    .target(
      name: "TinyDependencyValidation",
      dependencies: ["TinyDependency", "TinyDependencyCollections", "TinyDependencyGraph"]
    ),
    .target(
      name: "TinyDependencyTesting",
      dependencies: ["TinyDependency", "TinyDependencyGraph", "TinyDependencyValidation"]
    ),
    .target(name: "TinyDependencyBuiltins", dependencies: ["TinyDependency"]),
    .target(name: "TinyDependencyURLSession", dependencies: ["TinyDependency"]),
    .target(name: "TinyDependencyLifecycle", dependencies: ["TinyDependency"]),
    .target(name: "TinyDependencyFactories", dependencies: ["TinyDependency"]),
    .target(name: "TinyDependencyCollections", dependencies: ["TinyDependency"]),
    .target(name: "TinyDependencyConcurrency", dependencies: ["TinyDependency"]),
    .target(name: "TinyDependencyFace", dependencies: ["TinyDependency"]),
    .target(
      name: "TinyDependencyFaceTestSupport",
      dependencies: ["TinyDependencyFace", "TinyDependencyTesting"]
    ),
    .plugin(
      name: "DependencyGraphPlugin",
      capability: .command(
        intent: .custom(
          verb: "dependency-graph",
          description: "Builds a graph check executable (DependencyCheck.main) and runs it: "
            + "prints the dependency graph, or checks it against a committed JSON file"
        ),
        // No declared permission to write to the package: SwiftPM would then refuse every run,
        // printing or checking too, without `--allow-writing-to-package-directory`. That flag
        // still opens the package to `--output` under the macOS sandbox without a declaration.
        permissions: []
      )
    ),
    .target(
      name: "TinyDependencySwiftUI",
      dependencies: [
        "TinyDependency",
        .target(name: "SwiftUIStandIn", condition: .when(platforms: nonApplePlatforms)),
      ]
    ),
    // Declarations of the SwiftUI API that TinyDependencySwiftUI uses (from the iOS 18.0 SDK's
    // interface), so that Linux compiles the product. Not named `SwiftUI`: every module of the
    // package shares one search path, where that name would turn `canImport(SwiftUI)` true.
    // Linked only where SwiftUI does not exist; its file is empty where it does.
    .target(name: "SwiftUIStandIn", path: "Tests/SwiftUIStandIn"),
    .executableTarget(name: "DependencyContextProbe", dependencies: ["TinyDependency"]),
    // Runs the package's executables in a child process, for the test targets that do.
    .target(name: "TestSubprocess", path: "Tests/Subprocess"),
    // An interface module with a test-only key, whose live conformance MigrationTests adds.
    .target(
      name: "SplitKeyInterface",
      dependencies: ["TinyDependency"],
      path: "Tests/SplitKeyInterface"
    ),
    // The example app: its code in a library, its entry point and its graph check beside it.
    .target(
      name: "TinyDependencyExample",
      dependencies: [
        "TinyDependency", "TinyDependencyCollections", "TinyDependencyGraph",
        "TinyDependencyLifecycle",
      ]
    ),
    .executableTarget(
      name: "TinyDependencyExampleMain",
      dependencies: [
        "TinyDependency", "TinyDependencyCollections", "TinyDependencyExample",
        "TinyDependencyValidation",
      ]
    ),
    .executableTarget(
      name: "TinyDependencyExampleGraph",
      dependencies: [
        "TinyDependencyCollections", "TinyDependencyExample", "TinyDependencyValidation",
      ],
      // The committed graph that CI checks with `--check`.
      exclude: ["dependency-graph.json"]
    ),
    .executableTarget(
      name: "TinyDependencyServerExample",
      dependencies: ["TinyDependency", "TinyDependencyGraph", "TinyDependencyLifecycle"]
    ),
    .executableTarget(
      name: "TinyDependencyBenchmarks",
      dependencies: [
        "TinyDependency", "TinyDependencyBuiltins", "TinyDependencyCollections",
        "TinyDependencyFactories", "TinyDependencyGraph", "TinyDependencyLifecycle",
      ]
    ),
    .testTarget(
      name: "TinyDependencyTests",
      dependencies: [
        "TinyDependencyFactories",
        "TinyDependency", "TinyDependencyGraph", "DependencyContextProbe", "TinyDependencyExample",
        "TinyDependencyExampleMain", "TestSubprocess",
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
        "TinyDependencyFactories",
        "TinyDependency", "TinyDependencyGraph", "TinyDependencyTesting",
        "TinyDependencyValidation", "TinyDependencyLifecycle", "TestSubprocess",
      ]
    ),
    .testTarget(
      name: "TinyDependencyBuiltinsTests",
      dependencies: [
        "TinyDependency", "TinyDependencyBuiltins", "TinyDependencyTesting",
        "TinyDependencyValidation",
      ]
    ),
    .testTarget(
      name: "TinyDependencyValidationTests",
      dependencies: [
        "TinyDependency", "TinyDependencyGraph", "TinyDependencyValidation",
        "TinyDependencyExampleGraph", "TestSubprocess",
      ]
    ),
    .testTarget(
      name: "TinyDependencySwiftUITests",
      dependencies: [
        "TinyDependency", "TinyDependencySwiftUI",
        .target(name: "SwiftUIStandIn", condition: .when(platforms: nonApplePlatforms)),
      ]
    ),
    .testTarget(
      name: "TinyDependencyCollectionsTests",
      dependencies: [
        "TinyDependency", "TinyDependencyCollections", "TinyDependencyGraph",
        "TinyDependencyTesting", "TinyDependencyValidation", "TestSubprocess",
      ]
    ),
    .testTarget(name: "CompatibilityTests", dependencies: ["TinyDependency"]),
    // Keys spelled with `liveValue`, through the face, as a swift-dependencies user writes them.
    // A file that also imports the core, and one that uses the concurrency helpers, say so.
    .testTarget(
      name: "FaceTests",
      dependencies: [
        "TinyDependencyFaceTestSupport", "TinyDependency", "TinyDependencyConcurrency",
      ]
    ),
    // A file moved from swift-dependencies imports what these suites import, and nothing else.
    .testTarget(
      name: "MigrationTests",
      dependencies: [
        "TinyDependency", "TinyDependencyBuiltins", "TinyDependencyConcurrency",
        "TinyDependencyTesting", "TinyDependencyURLSession", "SplitKeyInterface",
        "TestSubprocess",
      ],
      exclude: ["AUDIT.md"]
    ),
    .testTarget(
      name: "DocumentationTests",
      dependencies: [
        "TinyDependencyFactories",
        "TinyDependency", "TinyDependencyGraph", "TinyDependencyTesting", "TinyDependencyBuiltins",
        "TinyDependencyConcurrency", "TinyDependencyFace", "TinyDependencyLifecycle",
        "TinyDependencyExample", "TinyDependencyValidation", "TinyDependencyCollections",
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

// The compatibility suite is compiled as a user's target would be, without these flags; a plugin
// target takes no settings.
for target in package.targets where target.name != "CompatibilityTests" && target.type != .plugin {
  var settings = target.swiftSettings ?? []
  // Every existential is spelled `any`.
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  // Imports are internal unless marked otherwise, so nothing leaks into the public interface.
  settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
  // A member is visible only where its module is imported.
  settings.append(.enableUpcomingFeature("MemberImportVisibility"))
  target.swiftSettings = settings
}
