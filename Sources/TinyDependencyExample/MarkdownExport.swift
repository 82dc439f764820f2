import TinyDependency
import TinyDependencyCollections

/// Exports the to-dos as a Markdown task list, and logs that it did.
struct MarkdownExporter: TodoExporter {
  let logger: any Logger
  var format: String { "markdown" }

  func export(_ todos: [Todo]) -> String {
    logger.log("exported \(todos.count) to-dos as Markdown")
    return todos.map { "- [\($0.completed == nil ? " " : "x")] \($0.title)" }
      .joined(separator: "\n")
  }
}

/// The Markdown exporter: a member, and a key like any other, which reads the logger.
enum MarkdownExporterKey: DependencyContribution {
  typealias Collection = TodoExportersKey
  static var defaultValue: any TodoExporter {
    MarkdownExporter(logger: DependencyValues.current.logger)
  }
  static var testValue: any TodoExporter {
    MarkdownExporter(logger: DependencyValues.current.logger)
  }
}

/// The Markdown export, a module of its own.
enum MarkdownExportModule: DependencyModule {
  static func register(_ values: inout DependencyValues) {
    values.contribute(MarkdownExporterKey.self)
  }
}
