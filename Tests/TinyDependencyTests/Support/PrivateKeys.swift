import TinyDependency
import TinyDependencyGraph

/// A private key named like one in DependencyGraphTests+Rendering.swift: the two differ only by
/// file.
private enum SettingsKey: DependencyKey {
  static let defaultValue = "settings of the support files"
}

/// The private `SettingsKey` of this file.
var settingsKeyOfSupportFiles: any DependencyKey.Type { SettingsKey.self }
