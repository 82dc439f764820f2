// Collections and modules written as their article shows them, in a module that defaults to
// main-actor isolation: a collection of main-actor state (panels a screen shows), its members,
// and the module that contributes them, registered at the entry point and in a test's trait.
import TinyDependency
import TinyDependencyCollections

// MARK: - A collection of main-actor members

/// A panel of the home screen: main-actor state, made anywhere (a member is built wherever its
/// collection is first read).
final class Panel {
  let title: String
  private(set) var shown = 0

  nonisolated init(title: String) { self.title = title }

  func show() -> String {
    shown += 1
    return "\(title) #\(shown)"
  }
}

enum PanelsKey: DependencyCollectionKey {
  typealias Element = Panel
}

enum TodayPanelKey: DependencyContribution {
  typealias Collection = PanelsKey
  static var defaultValue: Panel { Panel(title: "Today") }
  static var testValue: Panel { Panel(title: "Today (test)") }
}

enum InboxPanelKey: DependencyContribution {
  typealias Collection = PanelsKey
  static var defaultValue: Panel { Panel(title: "Inbox") }
  static var testValue: Panel { Panel(title: "Inbox (test)") }
}

nonisolated extension DependencyValues {
  var panels: [Panel] { self[PanelsKey.self] }
}

// MARK: - A module

enum HomeModule: DependencyModule {
  static func register(_ values: inout DependencyValues) {
    values.contribute(TodayPanelKey.self)
    values.contribute(InboxPanelKey.self)
  }
}

/// The home screen shows every panel its modules contributed.
final class HomeScreen {
  @Dependency(\.panels) var panels

  func render() -> [String] { panels.map { $0.show() } }
}

func launchWithModules() -> [String] {
  prepareDependencies { $0.register(HomeModule.self) }
  return HomeScreen().render()
}

nonisolated func showPanelsFromAnywhere() async -> [String] {
  let panels = DependencyValues.current.panels
  var shown: [String] = []
  for panel in panels { shown.append(await panel.show()) }
  return shown
}

/// A server's root, or a test's trait, registers the module off the main actor.
nonisolated func rootWithModules() -> DependencyValues {
  var values = DependencyValues(context: .default)
  values.register(HomeModule.self)
  return values
}
