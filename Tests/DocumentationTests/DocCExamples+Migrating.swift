// Compiled copies of the code blocks in Migrating-from-the-original-TinyDependency.md and
// Migrating-from-swift-dependencies.md. DocCArticlesTests checks that every ```swift block of the
// catalogs appears in a DocCExamples+ file line for line; edit both together.

import TinyDependency
import TinyDependencyTesting

// MARK: - Migrating from the original TinyDependency

struct Theme: Sendable, Equatable {
  var accent: String
}

private struct ThemeKey: DependencyKey {
  static let defaultValue = Theme(accent: "blue")
  static let testValue = Theme(accent: "gray")
  static let previewValue = Theme(accent: "pink")
}

extension DependencyValues {
  var theme: Theme {
    get { self[ThemeKey.self] }
    set { self[ThemeKey.self] = newValue }
  }
}

final class ThemedButton {
  @Dependency(\.theme) var theme

  var accent: String { theme.accent }
}

func themedButtons() -> [String] {
  let plain = ThemedButton()
  let dark = withDependencies {
    $0.theme = Theme(accent: "black")
  } operation: {
    ThemedButton()
  }
  return [plain.accent, dark.accent]  // in tests: ["gray", "black"]
}

// MARK: - Migrating from swift-dependencies

struct NumberFactClient: Sendable {
  var fetch: @Sendable (_ number: Int) async throws -> String
}

extension NumberFactClient: DependencyKey {
  static let defaultValue = NumberFactClient { number in
    "\(number) is a good number."  // the live implementation: a network request, say
  }
  static let testValue = NumberFactClient { number in
    "\(number) is a test number."
  }
}

extension DependencyValues {
  var numberFact: NumberFactClient {
    get { self[NumberFactClient.self] }
    set { self[NumberFactClient.self] = newValue }
  }
}

struct NumberFactModel {
  @Dependency(\.numberFact) var numberFact
  @Dependency(\.context) var context

  func fact(about number: Int) async throws -> String {
    try await numberFact.fetch(number)
  }
}

func overriddenFact() async throws -> String {
  try await withDependencies {
    $0.numberFact.fetch = { number in "\(number) is overridden." }
  } operation: {
    try await NumberFactModel().fact(about: 42)  // "42 is overridden."
  }
}

struct UserClient: Sendable {
  var fetchUser: @Sendable (_ id: Int) async throws -> String
  var count: @Sendable () -> Int
  var track: @Sendable (_ event: String) -> Void
}

extension UserClient: DependencyKey {
  static let defaultValue = UserClient(
    fetchUser: { id in "user \(id)" },  // the live implementation
    count: { 0 },
    track: { _ in }
  )
  static let testValue = UserClient(
    fetchUser: unimplemented("UserClient.fetchUser"),
    count: unimplemented("UserClient.count", placeholder: 0),
    track: unimplemented("UserClient.track")
  )
}
