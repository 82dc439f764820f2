import Foundation
import Observation
import Testing
import TinyDependency
import TinyDependencyBuiltins
import TinyDependencyTesting

// Written as swift-dependencies' README and "Quick start", "Using dependencies" and "Overriding
// dependencies" articles write their models and tests, with only the imports changed; Combine's
// `\.mainQueue` stays out.

struct Item: Equatable, Identifiable {
  let id: UUID
  var name: String
  var createdAt: Date
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@Observable
final class ItemsModel {
  var items: [Item] = []

  @ObservationIgnored
  @Dependency(\.continuousClock) var clock  // Controllable way to sleep a task
  @ObservationIgnored
  @Dependency(\.date.now) var now  // Controllable way to ask for current date
  @ObservationIgnored
  @Dependency(\.uuid) var uuid  // Controllable UUID creation

  func addButtonTapped() async throws {
    try await clock.sleep(for: .seconds(1))  // 👈 Don't use 'Task.sleep'
    items.append(
      Item(
        id: uuid(),  // 👈 Don't use 'UUID()'
        name: "",
        createdAt: now  // 👈 Don't use 'Date()'
      )
    )
  }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@Observable
final class WelcomeModel {
  var message: String?

  @ObservationIgnored
  @Dependency(\.continuousClock) var clock

  func onAppear() async {
    do {
      try await clock.sleep(for: .seconds(10))
      message = "Welcome!"
    } catch {}
  }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@Observable
final class TodosModel {
  var editTodo: EditTodoModel?

  @ObservationIgnored
  @Dependency(\.apiClient) var apiClient
  @ObservationIgnored
  @Dependency(\.date) var date

  func tappedTodo(_ todo: String) {
    editTodo = withDependencies(from: self) {
      EditTodoModel(todo: todo)
    }
  }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@Observable
final class EditTodoModel {
  let todo: String

  @ObservationIgnored
  @Dependency(\.apiClient) var apiClient

  init(todo: String) {
    self.todo = todo
  }
}

@Suite("swift-dependencies' own README and article examples run here")
struct SwiftDependenciesArticleTests {
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test(
    // 1️⃣ Override any dependencies that your feature uses.
    .dependencies {
      $0.continuousClock = .immediate
      $0.date.now = Date(timeIntervalSinceReferenceDate: 1234567890)
      $0.uuid = .incrementing
    }
  )
  func add() async throws {
    // 2️⃣ Construct the feature's model
    let model = ItemsModel()
    // 3️⃣ The model now executes in a controlled environment of dependencies,
    //    and so we can make assertions against its behavior.
    try await model.addButtonTapped()
    #expect(
      model.items == [
        Item(
          id: UUID(uuidString: "00000000-0000-0000-0000-000000000000")!,
          name: "",
          createdAt: Date(timeIntervalSinceReferenceDate: 1234567890)
        )
      ]
    )
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test(
    .dependencies {
      $0.continuousClock = .immediate
    }
  )
  func message() async {
    let model = WelcomeModel()
    #expect(model.message == nil)
    await model.onAppear()
    #expect(model.message == "Welcome!")
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func childModelsInheritTheirParentsDependencies() {
    let model = withDependencies {
      $0.apiClient = .mock
      $0.date.now = Date(timeIntervalSince1970: 1234567890)
    } operation: {
      TodosModel()
    }
    model.tappedTodo("Buy milk")
    #expect(model.editTodo?.apiClient.baseURL == "https://mock.example.com")
    #expect(model.editTodo?.todo == "Buy milk")
  }
}
