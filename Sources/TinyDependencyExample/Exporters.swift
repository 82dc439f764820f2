public import TinyDependency
public import TinyDependencyCollections

/// Turns the to-do list into text in one format: the example app's plugins.
protocol TodoExporter: Sendable {
  /// The format's name, as the app lists it.
  var format: String { get }
  /// The to-dos in this format.
  func export(_ todos: [Todo]) -> String
}

/// Every exporter the app's modules contribute, in the order they contributed them.
enum TodoExportersKey: DependencyCollectionKey {
  typealias Element = any TodoExporter
}

/// The app's modules: what its entry point registers, and its graph check's `configure` too.
public enum AppModule: DependencyModule {
  /// Registers the app's export modules.
  public static func register(_ values: inout DependencyValues) {
    values.register(PlainTextExportModule.self)
    values.register(MarkdownExportModule.self)
  }
}
