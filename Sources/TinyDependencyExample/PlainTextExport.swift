import TinyDependency
import TinyDependencyCollections

/// Exports each to-do as a line of plain text.
struct PlainTextExporter: TodoExporter {
  var format: String { "text" }

  func export(_ todos: [Todo]) -> String {
    todos.map { "\($0.completed == nil ? "-" : "x") \($0.title)" }.joined(separator: "\n")
  }
}

/// The plain-text exporter: a member of the app's exporters.
enum PlainTextExporterKey: DependencyContribution {
  typealias Collection = TodoExportersKey
  static var defaultValue: any TodoExporter { PlainTextExporter() }
  static var testValue: any TodoExporter { PlainTextExporter() }
}

/// The plain-text export, a module of its own.
enum PlainTextExportModule: DependencyModule {
  static func register(_ values: inout DependencyValues) {
    values.contribute(PlainTextExporterKey.self)
  }
}
