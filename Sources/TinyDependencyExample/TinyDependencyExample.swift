import TinyDependency

/// Runs a to-do store with the dependencies of the detected context (live under `swift run`).
@main
struct TinyDependencyExample {
  static func main() {
    print("TinyDependency example: a to-do store (context: \(DependencyValues.current.context))")
    let store = TodoStore()
    let milk = store.add("Buy milk")
    store.add("Write the README")
    store.complete(milk.id)
    print("To-dos:")
    for todo in store.todos {
      print("  \(todo)")
    }
    print("\(store.open.count) open")
  }
}
