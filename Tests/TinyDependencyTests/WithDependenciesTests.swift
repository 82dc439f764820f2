import Dispatch
import Testing
import TinyDependency

@Suite("Scoping with withDependencies")
struct WithDependenciesTests {
  struct Failure: Error {}

  // MARK: - Synchronous

  @Test func overrideIsVisibleInsideAndRestoredAfter() {
    #expect(DependencyValues.current.greeting == "hello")
    let inside = withDependencies {
      $0.greeting = "inside"
    } operation: {
      DependencyValues.current.greeting
    }
    #expect(inside == "inside")
    #expect(DependencyValues.current.greeting == "hello")
  }

  @Test func nestedScopesSeeOuterOverridesAndRestoreThem() {
    withDependencies {
      $0.greeting = "outer"
      $0.leaf = "outer leaf"
    } operation: {
      withDependencies {
        $0.greeting = "inner"
      } operation: {
        #expect(DependencyValues.current.greeting == "inner")
        #expect(DependencyValues.current.leaf == "outer leaf")
      }
      #expect(DependencyValues.current.greeting == "outer")
    }
  }

  @Test func scopeIsRestoredWhenOperationThrows() {
    #expect(throws: Failure.self) {
      try withDependencies {
        $0.greeting = "doomed"
      } operation: {
        throw Failure()
      }
    }
    #expect(DependencyValues.current.greeting == "hello")
  }

  @Test func throwingUpdateSkipsOperation() {
    var ran = false
    #expect(throws: Failure.self) {
      try withDependencies { _ in
        throw Failure()
      } operation: {
        ran = true
      }
    }
    #expect(!ran)
  }

  @Test func updateStartsFromCurrentValues() {
    withDependencies {
      $0.greeting = "first"
    } operation: {
      withDependencies {
        $0.greeting += " and second"
      } operation: {
        #expect(DependencyValues.current.greeting == "first and second")
      }
    }
  }

  @Test func contextCanBeChosenForAScope() {
    withDependencies {
      $0.context = .preview
    } operation: {
      #expect(DependencyValues.current.context == .preview)
      #expect(DependencyValues.current.contextName == "preview")
    }
    #expect(DependencyValues.current.contextName == "test")
  }

  // MARK: - Asynchronous

  @Test func asyncOperationSeesOverrideAcrossSuspension() async {
    let seen = await withDependencies {
      $0.greeting = "async"
    } operation: {
      await Task.yield()
      return DependencyValues.current.greeting
    }
    #expect(seen == "async")
    #expect(DependencyValues.current.greeting == "hello")
  }

  @Test func asyncUpdateMayAwait() async {
    let seen = await withDependencies {
      await Task.yield()
      $0.greeting = "awaited"
    } operation: {
      DependencyValues.current.greeting
    }
    #expect(seen == "awaited")
  }

  @Test func childTasksInheritTheScope() async {
    await withDependencies {
      $0.greeting = "inherited"
    } operation: {
      async let fromAsyncLet = DependencyValues.current.greeting
      let fromTask = await Task { DependencyValues.current.greeting }.value
      let fromGroup = await withTaskGroup(of: String.self) { group in
        for _ in 0..<10 {
          group.addTask { DependencyValues.current.greeting }
        }
        var all: [String] = []
        for await greeting in group { all.append(greeting) }
        return all
      }
      #expect(await fromAsyncLet == "inherited")
      #expect(fromTask == "inherited")
      #expect(fromGroup == Array(repeating: "inherited", count: 10))
    }
  }

  @Test func detachedTasksAndDispatchDoNotInheritTheScope() async {
    await withDependencies {
      $0.greeting = "scoped"
    } operation: {
      let detached = await Task.detached { DependencyValues.current.greeting }.value
      let dispatched = await withCheckedContinuation { continuation in
        onNewThread {
          continuation.resume(returning: DependencyValues.current.greeting)
        }
      }
      #expect(detached == "hello")
      #expect(dispatched == "hello")
    }
  }

  @Test func operationRunsOnTheCallersActor() async {
    let counter = Tally()
    let seen = await counter.incrementInScope()
    #expect(seen == "actor scope")
    #expect(await counter.count == 1)
  }

  @Test func concurrentScopesDoNotSeeEachOther() async {
    let mismatches = await withTaskGroup(of: Int.self) { group in
      for index in 0..<200 {
        group.addTask {
          await withDependencies {
            $0.greeting = "task \(index)"
          } operation: {
            var wrong = 0
            for _ in 0..<20 {
              await Task.yield()
              if DependencyValues.current.greeting != "task \(index)" { wrong += 1 }
            }
            return wrong
          }
        }
      }
      return await group.reduce(0, +)
    }
    #expect(mismatches == 0)
  }

  // MARK: - Explicit containers

  @Test func asyncOperationWithExplicitContainer() async {
    var values = DependencyValues(context: .preview)
    values.greeting = "explicit"
    let seen = await withDependencies(values) {
      await Task.yield()
      return (DependencyValues.current.greeting, DependencyValues.current.contextName)
    }
    #expect(seen == ("explicit", "preview"))
  }
}

/// An actor whose method mutates its state inside a scope, without the closure being Sendable.
actor Tally {
  var count = 0

  func incrementInScope() async -> String {
    await withDependencies {
      $0.greeting = "actor scope"
    } operation: {
      count += 1
      await Task.yield()
      return DependencyValues.current.greeting
    }
  }
}
