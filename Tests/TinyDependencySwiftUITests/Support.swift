import TinyDependency

/// A service that is an object, so a test can tell one build from another.
final class CounterService: Sendable {}

enum CounterServiceKey: DependencyKey {
  static var defaultValue: CounterService { CounterService() }
}

/// A service built from the greeting: a scope that overrides the greeting builds its own.
final class GreetingService: Sendable {
  let greeting: String
  init(greeting: String) { self.greeting = greeting }
}

enum GreetingServiceKey: DependencyKey {
  static var defaultValue: GreetingService {
    GreetingService(greeting: DependencyValues.current.greeting)
  }
}

enum GreetingKey: DependencyKey {
  static let defaultValue = "live"
  static let testValue = "test"
  static let previewValue = "preview"
}

/// A dependency that is not `Equatable`.
struct Greeter: Sendable {
  var prefix: String
  var greet: @Sendable (String) -> String = { "hello, \($0)" }
}

enum GreeterKey: DependencyKey {
  static let defaultValue = Greeter(prefix: "live")
  static let testValue = Greeter(prefix: "test")
  static let previewValue = Greeter(prefix: "preview")
}

extension DependencyValues {
  var counterService: CounterService {
    get { self[CounterServiceKey.self] }
    set { self[CounterServiceKey.self] = newValue }
  }

  var greetingService: GreetingService {
    get { self[GreetingServiceKey.self] }
    set { self[GreetingServiceKey.self] = newValue }
  }

  var greeting: String {
    get { self[GreetingKey.self] }
    set { self[GreetingKey.self] = newValue }
  }

  var greeter: Greeter {
    get { self[GreeterKey.self] }
    set { self[GreeterKey.self] = newValue }
  }
}
