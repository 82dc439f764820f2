import Dispatch
import Foundation
import Observation
import Testing
import TinyDependency
import TinyDependencyBuiltins
import TinyDependencyTesting

// Written the way swift-dependencies 1.16's "Dependency lifetimes" article writes its code, with
// only the imports changed; its `print`s are `#expect`s here. AUDIT.md maps each block to a test.

// Lifetimes, block 1: a task local of the language's own.
enum Scoped {
  @TaskLocal static var value = 1
}

// Lifetimes, block 7: a model that reads a client when it is used.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@Observable
final class AccountModel {
  var user: User?

  @ObservationIgnored
  @Dependency(\.apiClient) var apiClient

  func onAppear() async {
    do {
      user = try await apiClient.fetchUser(1)
    } catch {}
  }

  func childModel() -> AccountModel {
    // Lifetimes, block 9: a child made from this model's dependencies, plus an override.
    withDependencies(from: self) {
      $0.apiClient.baseURL = "https://child.example.com"
    } operation: {
      AccountModel()
    }
  }
}

@Suite("swift-dependencies' Dependency lifetimes article runs here")
struct AuditLifetimesTests {
  // Lifetimes, blocks 2 and 4: a value bound for the length of a closure.
  @Test func boundForTheClosure() {
    #expect(Scoped.value == 1)
    Scoped.$value.withValue(42) {
      #expect(Scoped.value == 42)
    }
    #expect(Scoped.value == 1)
  }

  // Lifetimes, block 5: an unstructured task inherits the binding.
  @Test func aTaskInheritsTheBinding() async throws {
    #expect(Scoped.value == 1)
    let task = Scoped.$value.withValue(42) {
      let task = Task {
        try await Task.sleep(nanoseconds: 1_000_000)
        return Scoped.value
      }
      #expect(Scoped.value == 42)
      return task
    }
    #expect(try await task.value == 42)
  }

  // Lifetimes, block 6: a dispatch queue does not (a global queue here: nothing drains the main
  // queue under a test runner on every platform).
  @Test func aDispatchQueueDoesNotInheritTheBinding() async {
    let seen = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
      Scoped.$value.withValue(42) {
        #expect(Scoped.value == 42)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) {
          continuation.resume(returning: Scoped.value)
        }
      }
    }
    #expect(seen == 1)
  }

  // Lifetimes, blocks 7 and 8: a model made in a scope keeps that scope's dependencies.
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func aModelKeepsTheDependenciesItWasMadeWith() async {
    let onboardingModel = withDependencies {
      $0.apiClient = .mock
    } operation: {
      AccountModel()
    }
    await onboardingModel.onAppear()
    #expect(onboardingModel.user == User(id: 1, name: "Blob"))
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func aChildGetsItsParentsDependenciesAndItsOwnOverrides() async {
    let parent = withDependencies {
      $0.apiClient = .mock
    } operation: {
      AccountModel()
    }
    let child = parent.childModel()
    await child.onAppear()
    #expect(child.user == User(id: 1, name: "Blob"))
    #expect(child.apiClient.baseURL == "https://child.example.com")
  }

  // Lifetimes, block 11: dependencies carried into a dispatch queue's work.
  @Test func escapedDependenciesAreYieldedLater() async {
    let baseURL = await withCheckedContinuation {
      (continuation: CheckedContinuation<String, Never>) in
      withDependencies {
        $0.apiClient = .mock
      } operation: {
        withEscapedDependencies { dependencies in
          DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) {
            dependencies.yield {
              // Code here uses the dependencies as they were at withEscapedDependencies.
              @Dependency(\.apiClient) var apiClient
              continuation.resume(returning: apiClient.baseURL)
            }
          }
        }
      }
    }
    #expect(baseURL == "https://mock.example.com")
  }

  // Overriding dependencies, block 4: one endpoint overridden for the model a test makes.
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func onAppear() async {
    let model = withDependencies {
      $0.apiClient.fetchUser = { _ in User(id: 42, name: "Blob") }
    } operation: {
      AccountModel()
    }

    #expect(model.user == nil)
    await model.onAppear()
    #expect(model.user == User(id: 42, name: "Blob"))
  }
}
