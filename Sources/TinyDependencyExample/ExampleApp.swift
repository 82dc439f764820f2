public import TinyDependency
public import TinyDependencyGraph

/// The example app: a to-do store with the dependencies of the detected context (live under
/// `swift run`), then the graph of what it built.
///
///     swift run TinyDependencyExample            # the demo, then the graph of what it built
///     swift run TinyDependencyExample --mermaid  # the same graph as a Mermaid flowchart
public enum ExampleApp {
  /// Every key of the app, for its graph check (`TinyDependencyExampleGraph`).
  public static let keys: [any DependencyKey.Type] = [
    DraftsKey.self, IDGeneratorKey.self, LoggerKey.self, MarkdownExporterKey.self,
    PlainTextExporterKey.self, SignedInUserKey.self, TodoExportersKey.self, TodoStoreKey.self,
    WallClockKey.self,
  ]

  /// Runs the demo and prints the graph of what it built; returns that graph. The entry point
  /// registers ``AppModule`` first (`prepareDependencies { $0.register(AppModule.self) }`).
  @discardableResult
  public static func run(arguments: [String]) async -> DependencyGraph {
    let values = DependencyValues.current
    print("TinyDependency example: a to-do store (context: \(values.context))")
    let store = values.todoStore
    let milk = await store.add("Buy milk")
    await store.add("Write the README")
    await store.complete(milk.id)
    print("To-dos:")
    for line in await TodoReport().lines() {
      print(line)
    }
    print("")
    // The exporters the app's modules contributed: plugins, in the order they were registered.
    let todos = await store.todos
    for exporter in values[TodoExportersKey.self] {
      print("Export as \(exporter.format):")
      print(exporter.export(todos))
    }
    print("")
    // A session per signed-in user: sign in, sign out, sign in as another user.
    for line in await signInAndOut(["ada", "grace"], in: values) {
      print(line)
    }
    print("")
    if arguments.contains("--mermaid") {
      print(values.graph.mermaid, terminator: "")
    } else {
      print(values.graph.text, terminator: "")
    }
    return values.graph
  }
}
