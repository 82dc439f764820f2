// swift-tools-version: 6.2
import PackageDescription

// The root package, three folders up. SwiftPM names a path dependency after its folder, which
// differs between clones, so the name is read from the path.
let rootFolder = Context.packageDirectory.split(separator: "/").dropLast(3).last.map(String.init)!

let package = Package(
  name: "MainActorApp",
  platforms: [.macOS(.v13), .iOS(.v16)],
  dependencies: [.package(path: "../../..")],
  targets: [
    .target(
      name: "App",
      dependencies: [
        .product(name: "TinyDependency", package: rootFolder),
        .product(name: "TinyDependencyCollections", package: rootFolder),
        .product(name: "TinyDependencyFactories", package: rootFolder),
        .product(name: "TinyDependencyLifecycle", package: rootFolder),
      ],
      swiftSettings: [
        .defaultIsolation(MainActor.self),
        .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
        .enableUpcomingFeature("InferIsolatedConformances"),
      ]
    ),
    .target(
      name: "Mistakes",
      dependencies: [
        .product(name: "TinyDependency", package: rootFolder),
        .product(name: "TinyDependencyFactories", package: rootFolder),
      ],
      swiftSettings: [
        .defaultIsolation(MainActor.self),
        .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
        .enableUpcomingFeature("InferIsolatedConformances"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
