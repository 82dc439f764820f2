import Foundation
import TinyDependency
import TinyDependencyCollections

/// Counts builds of one key.
///
/// `@unchecked Sendable`: `count` is only touched with `lock` held.
final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  func add() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}

protocol Plugin: Sendable {
  var name: String { get }
}

struct NamedPlugin: Plugin {
  let name: String
}

// MARK: - An ordered collection and its members

enum PluginsKey: DependencyCollectionKey {
  typealias Element = any Plugin
}

enum SearchPluginKey: DependencyContribution {
  typealias Collection = PluginsKey
  static var defaultValue: any Plugin { NamedPlugin(name: "search") }
  static var testValue: any Plugin { NamedPlugin(name: "test search") }
}

enum SharePluginKey: DependencyContribution {
  typealias Collection = PluginsKey
  static var defaultValue: any Plugin { NamedPlugin(name: "share") }
  static var testValue: any Plugin { NamedPlugin(name: "test share") }
}

/// A member without a test value: in tests it falls back to its live value.
enum PrintPluginKey: DependencyContribution {
  typealias Collection = PluginsKey
  static var defaultValue: any Plugin { NamedPlugin(name: "print") }
}

extension DependencyValues {
  var plugins: [any Plugin] { self[PluginsKey.self] }
}

/// Names of a collection's elements, for comparisons.
func names(_ plugins: [any Plugin]) -> [String] { plugins.map(\.name) }

// MARK: - Collections for one test each

/// A collection whose members count their builds; `CountedMemberB` is slow to build.
enum CountedCollectionKey: DependencyCollectionKey {
  typealias Element = String
}

enum CountedMemberA: DependencyContribution {
  typealias Collection = CountedCollectionKey
  static let builds = Counter()
  static var defaultValue: String {
    builds.add()
    return "a"
  }
}

enum CountedMemberB: DependencyContribution {
  typealias Collection = CountedCollectionKey
  static let builds = Counter()
  static var defaultValue: String {
    builds.add()
    return "b(\(DependencyValues.current[SlowInputKey.self]))"
  }
}

/// A value that takes a while to build, read by `CountedMemberB`.
enum SlowInputKey: DependencyKey {
  static var defaultValue: String {
    Thread.sleep(forTimeInterval: 0.2)
    return "slow"
  }
}

/// A collection that may be empty.
enum OptionalPluginsKey: DependencyCollectionKey {
  typealias Element = any Plugin
  static var allowsEmpty: Bool { true }
}

/// A collection no one contributes to.
enum ForgottenKey: DependencyCollectionKey {
  typealias Element = Int
}

/// A member that reads its own collection.
enum CyclicCollectionKey: DependencyCollectionKey {
  typealias Element = String
}

enum SelfReadingMemberKey: DependencyContribution {
  typealias Collection = CyclicCollectionKey
  static var defaultValue: String {
    "reads \(DependencyValues.current[CyclicCollectionKey.self].count)"
  }
}

/// An input that nothing sets, read by a member.
enum UnsetTokenKey: DependencyInputKey {
  typealias Value = String
}

enum FailingCollectionKey: DependencyCollectionKey {
  typealias Element = String
}

enum FailingMemberKey: DependencyContribution {
  typealias Collection = FailingCollectionKey
  static var defaultValue: String { "token \(DependencyValues.current[UnsetTokenKey.self])" }
}

// MARK: - A map and its members

protocol Handler: Sendable {
  func handle(_ input: String) -> String
}

struct PrefixHandler: Handler {
  let prefix: String
  func handle(_ input: String) -> String { prefix + input }
}

enum HandlersKey: DependencyMapKey {
  typealias MapKey = String
  typealias Element = any Handler
}

enum SearchHandlerKey: DependencyMapContribution {
  typealias Map = HandlersKey
  static let mapKey = "search"
  static var defaultValue: any Handler { PrefixHandler(prefix: "search:") }
  static var testValue: any Handler { PrefixHandler(prefix: "test search:") }
}

enum OpenHandlerKey: DependencyMapContribution {
  typealias Map = HandlersKey
  static let mapKey = "open"
  static var defaultValue: any Handler { PrefixHandler(prefix: "open:") }
  static var testValue: any Handler { PrefixHandler(prefix: "test open:") }
}

/// A second member under `"search"`: a mistake.
enum OtherSearchHandlerKey: DependencyMapContribution {
  typealias Map = HandlersKey
  static let mapKey = "search"
  static var defaultValue: any Handler { PrefixHandler(prefix: "other:") }
  static var testValue: any Handler { PrefixHandler(prefix: "test other:") }
}

// MARK: - Modules

enum SearchModule: DependencyModule {
  static let runs = Counter()
  static func register(_ values: inout DependencyValues) {
    runs.add()
    values.contribute(SearchPluginKey.self)
    values.contribute(SearchHandlerKey.self)
  }
}

enum ShareModule: DependencyModule {
  static func register(_ values: inout DependencyValues) {
    values.register(SearchModule.self)
    values.contribute(SharePluginKey.self)
    values.contribute(OpenHandlerKey.self)
  }
}

enum AppModule: DependencyModule {
  static func register(_ values: inout DependencyValues) {
    values.register(SearchModule.self)
    values.register(ShareModule.self)
  }
}

/// Registers itself through a module that registers it back.
enum LoopModuleA: DependencyModule {
  static let runs = Counter()
  static func register(_ values: inout DependencyValues) {
    runs.add()
    values.register(LoopModuleB.self)
  }
}

enum LoopModuleB: DependencyModule {
  static let runs = Counter()
  static func register(_ values: inout DependencyValues) {
    runs.add()
    values.register(LoopModuleA.self)
  }
}

/// Counts its runs, for a test that registers it in two roots.
enum CountedModule: DependencyModule {
  static let runs = Counter()
  static func register(_ values: inout DependencyValues) {
    runs.add()
    values.contribute(PrintPluginKey.self)
  }
}

// MARK: - A session-scoped member, captive in a shared collection

enum Session: DependencyScope {}

enum SessionPluginsKey: DependencyCollectionKey {
  typealias Element = any Plugin
}

enum CartPluginKey: DependencyContribution {
  typealias Collection = SessionPluginsKey
  static var defaultValue: any Plugin { NamedPlugin(name: "cart") }
  static var testValue: any Plugin { NamedPlugin(name: "test cart") }
  static var lifetime: DependencyLifetime { .scoped(Session.self) }
}

// MARK: - Main-actor members

/// A screen: main-actor state, made anywhere.
@MainActor
final class Screen: Sendable {
  let title: String
  private(set) var shown = 0
  nonisolated init(title: String) { self.title = title }
  func show() -> String {
    shown += 1
    return "\(title) #\(shown)"
  }
}

enum ScreensKey: DependencyCollectionKey {
  typealias Element = Screen
}

enum HomeScreenKey: DependencyContribution {
  typealias Collection = ScreensKey
  static var defaultValue: Screen { Screen(title: "home") }
  static var testValue: Screen { Screen(title: "test home") }
}

enum SettingsScreenKey: DependencyContribution {
  typealias Collection = ScreensKey
  static var defaultValue: Screen { Screen(title: "settings") }
  static var testValue: Screen { Screen(title: "test settings") }
}

/// A key a scope sets to be a scope that changes something unrelated to a collection.
enum SessionUserNameKey: DependencyKey {
  static var defaultValue: String { "nobody" }
}

/// Values appended from several threads.
///
/// `@unchecked Sendable`: `items` is only touched with `lock` held.
final class LockedArray<Element: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [Element] = []
  func append(_ item: Element) { lock.withLock { items.append(item) } }
  var values: [Element] { lock.withLock { items } }
}
