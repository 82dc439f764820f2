import Dispatch
import Testing
import TinyDependency

/// A `Sendable` class cannot have a `var`, so it holds its dependencies in `let`s.
final class SendableGreeter: Sendable {
  let greeting = Dependency(\.greeting)
  let service = Dependency(GreetingKey.self)

  func greet(_ name: String) -> String { "\(greeting()), \(name)" }
}

actor GreeterActor {
  let greeting = Dependency(\.greeting)

  func greet(_ name: String) -> String { "\(greeting()), \(name)" }
}

@Suite("Dependency held in a let: Sendable classes and actors")
struct DependencyLetFormTests {
  // MARK: - Reading

  @Test func callAndWrappedValueReadTheCurrentValue() {
    let greeter = SendableGreeter()
    #expect(greeter.greeting() == "hello")
    #expect(greeter.greeting.wrappedValue == "hello")
    #expect(greeter.service() == "hello")
    withDependencies {
      $0.greeting = "scoped"
    } operation: {
      #expect(greeter.greet("Ada") == "scoped, Ada")
      #expect(greeter.service() == "scoped")
    }
    #expect(greeter.greet("Ada") == "hello, Ada")
  }

  @Test func actorReadsThroughALet() async {
    let greeter = GreeterActor()
    #expect(await greeter.greet("Ada") == "hello, Ada")
    let scoped = await withDependencies {
      $0.greeting = "hi"
    } operation: {
      await greeter.greet("Ada")
    }
    #expect(scoped == "hi, Ada")
  }

  // MARK: - Capture, as for the property wrapper

  @Test func objectMadeInScopeKeepsItAfterTheScopeEnds() {
    let greeter = withDependencies {
      $0.greeting = "captured"
    } operation: {
      SendableGreeter()
    }
    #expect(greeter.greeting() == "captured")
    withDependencies {
      $0.greeting = "newer"
    } operation: {
      #expect(greeter.greeting() == "newer")
    }
  }

  @Test func capturedScopeTravelsToOtherThreads() async {
    let greeter = withDependencies {
      $0.greeting = "captured"
    } operation: {
      SendableGreeter()
    }
    let detached = await Task.detached { greeter.greeting() }.value
    #expect(detached == "captured")
    let fromQueue = await withCheckedContinuation { continuation in
      onNewThread { continuation.resume(returning: greeter.greet("Ada")) }
    }
    #expect(fromQueue == "captured, Ada")
  }
}
