import Testing
import TinyDependency

// A parent model makes its child the way swift-dependencies' "Lifetimes" article shows.
final class FeatureModel {
  @Dependency(\.apiClient) var apiClient
  var onboarding: OnboardingModel?

  func startOnboarding() {
    onboarding = withDependencies(from: self) {
      $0.apiClient.baseURL = "https://onboarding.example.com"
    } operation: {
      OnboardingModel()
    }
  }
}

final class OnboardingModel {
  @Dependency(\.apiClient) var apiClient

  func userName(_ id: Int) async throws -> String {
    try await apiClient.fetchUser(id).name
  }
}

/// A model whose dependency is declared by its superclass.
class BaseModel {
  @Dependency(\.apiClient) var apiClient
}

final class SettingsModel: BaseModel {}

/// Holds no dependency: its children cannot inherit any.
final class PlainModel {}

@Suite("withDependencies(from:) gives a child the dependencies its parent was made with")
struct WithDependenciesFromTests {
  @Test func childSeesTheParentsOverridesAfterTheParentsScopeEnded() {
    let parent = withDependencies {
      $0.apiClient = .mock
    } operation: {
      FeatureModel()
    }
    let child = withDependencies(from: parent) { OnboardingModel() }
    #expect(child.apiClient.baseURL == "https://mock.example.com")
    #expect(OnboardingModel().apiClient.baseURL == "https://test.invalid")
  }

  @Test func overridesApplyOnTopOfTheParents() async throws {
    let parent = withDependencies {
      $0.apiClient = .mock
    } operation: {
      FeatureModel()
    }
    parent.startOnboarding()
    let child = try #require(parent.onboarding)
    #expect(child.apiClient.baseURL == "https://onboarding.example.com")
    #expect(try await child.userName(1) == "Blob")
    #expect(parent.apiClient.baseURL == "https://mock.example.com")
  }

  @Test func returnsTheOperationsValueAndRethrows() throws {
    struct Failure: Error {}
    let parent = withDependencies {
      $0.apiClient = .mock
    } operation: {
      FeatureModel()
    }
    let url = withDependencies(from: parent) {
      DependencyValues.current.apiClient.baseURL
    }
    #expect(url == "https://mock.example.com")
    #expect(throws: Failure.self) {
      try withDependencies(from: parent) { _ in
        throw Failure()
      } operation: {
        1
      }
    }
  }

  @Test func asyncOperationsSeeTheParentsDependencies() async throws {
    let parent = withDependencies {
      $0.apiClient = .mock
    } operation: {
      FeatureModel()
    }
    let name = try await withDependencies(from: parent) {
      $0.apiClient.fetchUser = { id in User(id: id, name: "Blob Jr.") }
    } operation: {
      try await OnboardingModel().userName(2)
    }
    #expect(name == "Blob Jr.")
    let url = await withDependencies(from: parent) {
      await Task { DependencyValues.current.apiClient.baseURL }.value
    }
    #expect(url == "https://mock.example.com")
  }

  @Test func aSuperclassesDependencyIsFound() {
    let parent = withDependencies {
      $0.apiClient = .mock
    } operation: {
      SettingsModel()
    }
    let child = withDependencies(from: parent) { OnboardingModel() }
    #expect(child.apiClient.baseURL == "https://mock.example.com")
  }

  @Test func aParentWithoutDependenciesIsReported() {
    let parent = PlainModel()
    withKnownIssue {
      let child = withDependencies(from: parent) { OnboardingModel() }
      #expect(child.apiClient.baseURL == "https://test.invalid")
    } matching: { issue in
      mentions(issue, "PlainModel, which holds no @Dependency")
    }
  }
}
