import Testing
import TinyDependency

@Suite("DependencyValues.live, .test and .preview replace a whole container")
struct WholeContainerTests {
  @Test func aScopeSwitchesToLiveValues() {
    let url = withDependencies {
      $0 = .live
    } operation: {
      DependencyValues.current.apiClient.baseURL
    }
    #expect(url == "https://api.example.com")
  }

  @Test func eachContainerHasItsContextAndNothingOverridden() {
    #expect(DependencyValues.live.context == .default)
    #expect(DependencyValues.test.context == .test)
    #expect(DependencyValues.preview.context == .preview)
    withDependencies {
      $0.apiClient = .mock
      $0 = .test
    } operation: {
      #expect(DependencyValues.current.apiClient.baseURL == "https://test.invalid")
    }
  }

  @Test func theLiveValueOfAKeyIsStillWrittenByName() {
    withDependencies {
      $0.apiClient = .defaultValue
    } operation: {
      @Dependency(\.apiClient) var apiClient
      #expect(apiClient.baseURL == "https://api.example.com")
    }
  }
}
