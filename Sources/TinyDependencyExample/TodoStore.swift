import TinyDependency

/// One thing to do.
struct Todo: Sendable, Hashable, CustomStringConvertible {
  var id: String
  var title: String
  var created: Timestamp
  var completed: Timestamp?

  var description: String {
    let mark = completed == nil ? "[ ]" : "[x]"
    return "\(mark) \(title) (\(id), added \(created))"
  }
}

/// A small to-do list with a clock, an identifier generator and a logger.
actor TodoStore {
  private let clock: WallClock
  private let ids: IDGenerator
  private let logger: any Logger
  private(set) var todos: [Todo] = []

  init(clock: WallClock, ids: IDGenerator, logger: any Logger) {
    self.clock = clock
    self.ids = ids
    self.logger = logger
  }

  /// Adds a to-do and returns it.
  @discardableResult
  func add(_ title: String) -> Todo {
    let todo = Todo(id: ids.next(), title: title, created: clock.now(), completed: nil)
    todos.append(todo)
    logger.log("added \"\(title)\" as \(todo.id)")
    return todo
  }

  /// Marks a to-do done; returns false when no to-do has that identifier.
  @discardableResult
  func complete(_ id: String) -> Bool {
    guard let index = todos.firstIndex(where: { $0.id == id }) else {
      logger.log("no to-do \(id) to complete")
      return false
    }
    todos[index].completed = clock.now()
    logger.log("completed \"\(todos[index].title)\"")
    return true
  }

  /// The to-dos not done yet.
  var open: [Todo] { todos.filter { $0.completed == nil } }
}

/// The app's store: one per container, built from that container's clock, identifiers and
/// logger.
enum TodoStoreKey: DependencyKey {
  static var defaultValue: TodoStore {
    let values = DependencyValues.current
    return TodoStore(clock: values.clock, ids: values.idGenerator, logger: values.logger)
  }
  // Built the same way in tests, from the test values of what it reads: say so, so that the
  // validator knows the live default is not used by accident.
  static var testValue: TodoStore { defaultValue }
}

extension DependencyValues {
  var todoStore: TodoStore {
    get { self[TodoStoreKey.self] }
    set { self[TodoStoreKey.self] = newValue }
  }
}

/// Prints what is left to do; it reads the store when it runs, through `@Dependency`.
struct TodoReport {
  @Dependency(\.todoStore) private var store

  func lines() async -> [String] {
    let todos = await store.todos
    let open = await store.open.count
    return todos.map { "  \($0)" } + ["\(open) open"]
  }
}
