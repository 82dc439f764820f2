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

/// A small to-do list that gets its clock, identifiers and logger from dependencies.
final class TodoStore {
  @Dependency(\.clock) private var clock
  @Dependency(\.idGenerator) private var ids
  @Dependency(\.logger) private var logger

  private(set) var todos: [Todo] = []

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
