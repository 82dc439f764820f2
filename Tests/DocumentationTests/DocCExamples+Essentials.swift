// Compiled copies of the code blocks in Getting-started.md, Choosing-values-for-each-context.md
// and the landing page of the TinyDependency catalog. DocCArticlesTests checks that every ```swift
// block of the catalogs appears in a DocCExamples+ file line for line; edit both together.

import TinyDependency

// MARK: - Getting started

struct Mailer: Sendable {
  var send: @Sendable (_ address: String, _ body: String) -> Bool
}

enum MailerKey: DependencyKey {
  static let defaultValue = Mailer { address, body in
    print("sending to \(address): \(body)")
    return true
  }
  static let testValue = Mailer { _, _ in true }
}

extension DependencyValues {
  var mailer: Mailer {
    get { self[MailerKey.self] }
    set { self[MailerKey.self] = newValue }
  }
}

struct WelcomeFlow {
  @Dependency(\.mailer) var mailer

  func welcome(_ address: String) -> Bool {
    mailer.send(address, "Welcome aboard!")
  }
}

func welcomeWithFailingMail() -> Bool {
  withDependencies {
    $0.mailer = Mailer { _, _ in false }
  } operation: {
    WelcomeFlow().welcome("ada@example.com")  // false: the override is used
  }
}

// MARK: - Choosing values for each context

struct Greeter: Sendable {
  var greet: @Sendable (_ name: String) -> String
}

enum GreeterKey: DependencyKey {
  static let defaultValue = Greeter { "Hello, \($0)!" }
  static let testValue = Greeter { "test: hello, \($0)" }
  static let previewValue = Greeter { "preview: hi, \($0)" }
}

extension DependencyValues {
  var greeter: Greeter {
    get { self[GreeterKey.self] }
    set { self[GreeterKey.self] = newValue }
  }
}

func greetingsForEachContext() -> [String] {
  DependencyContext.allCases.map { context in
    let values = DependencyValues(context: context)
    return values.greeter.greet("Ada")
  }
  // ["Hello, Ada!", "test: hello, Ada", "preview: hi, Ada"]
}

func previewGreeting() -> String {
  withDependencies {
    $0.context = .preview
  } operation: {
    DependencyValues.current.greeter.greet("Ada")  // "preview: hi, Ada"
  }
}

/// A shopping cart: a reference type, so every reader of one container shares it.
final class Cart: Sendable {
  let owner: String
  init(owner: String) { self.owner = owner }
}

enum CartKey: DependencyKey {
  static var defaultValue: Cart { Cart(owner: "guest") }  // one per container, on first read
}

func cartsPerContainer() -> [Bool] {
  let values = DependencyValues()
  let other = DependencyValues()
  return [
    values[CartKey.self] === values[CartKey.self],  // true: built once, then reused
    values[CartKey.self] === other[CartKey.self],  // false: each container builds its own
  ]
}

enum TicketNumberKey: DependencyKey {
  static var defaultValue: Int { Int.random(in: 1...9_999) }
  static var lifetime: DependencyLifetime { .transient }  // a new number on every read
}

enum ServiceURLKey: DependencyInputKey {
  typealias Value = String
  static let testValue = "https://service.test.invalid"  // tests need not set it
}
