// `@Observable` models as a SwiftUI app writes them, in a module that defaults to main-actor
// isolation: dependencies are `@ObservationIgnored @Dependency` properties, and a model made in
// a scope keeps it. Observation ships with the toolchain on Linux too.
import Observation
import TinyDependency

// MARK: - A feature's model

@MainActor
@Observable
final class GreetingFeatureModel {
  @ObservationIgnored @Dependency(\.api) var api
  var greeting = ""

  func load() async throws {
    greeting = try await api.fetch("/greeting")
  }
}

func makeStagingFeatureModel() -> GreetingFeatureModel {
  withDependencies {
    $0.api.baseURL = "https://staging.example.com"
  } operation: {
    GreetingFeatureModel()
  }
}

// MARK: - Without an explicit actor: the module's default

@Observable
final class CounterFeatureModel {
  @ObservationIgnored @Dependency(\.api) var api
  var count = 0

  func increment() {
    count += 1
  }

  var endpoint: String { api.baseURL }
}
