import Dispatch
import Testing
import TinyDependency

@Suite("Escaping a scope with withEscapedDependencies")
struct WithEscapedDependenciesTests {
  @Test func dispatchedWorkSeesTheCapturedScope() async {
    let seen = await withDependencies {
      $0.greeting = "escaped"
    } operation: {
      await withCheckedContinuation { (result: CheckedContinuation<String, Never>) in
        withEscapedDependencies { dependencies in
          onNewThread {
            dependencies.yield {
              result.resume(returning: DependencyValues.current.greeting)
            }
          }
        }
      }
    }
    #expect(seen == "escaped")
  }

  @Test func detachedTaskSeesTheCapturedScope() async {
    let seen = await withDependencies {
      $0.greeting = "detached"
    } operation: {
      await withEscapedDependencies { dependencies in
        await Task.detached {
          await dependencies.yield {
            await Task.yield()
            return DependencyValues.current.greeting
          }
        }.value
      }
    }
    #expect(seen == "detached")
  }

  @Test func continuationWorksAfterItsScopeEndedFromManyThreads() async {
    let continuation = withDependencies {
      $0.greeting = "kept"
    } operation: {
      withEscapedDependencies { $0 }
    }
    let seen = await onThreads(32) { _ in
      continuation.yield { DependencyValues.current.greeting }
    }
    #expect(seen == Array(repeating: "kept", count: 32))
    #expect(DependencyValues.current.greeting == "hello")
  }

  @Test func yieldRestoresTheCallersScope() {
    let continuation = withDependencies {
      $0.greeting = "captured"
    } operation: {
      withEscapedDependencies { $0 }
    }
    withDependencies {
      $0.greeting = "caller"
    } operation: {
      #expect(continuation.yield { DependencyValues.current.greeting } == "captured")
      #expect(DependencyValues.current.greeting == "caller")
    }
  }
}
