// Named scopes and factories written as their articles show them, in a module that defaults to
// main-actor isolation: what an app target writes must compile here too. The classes a key's
// values are made of are `nonisolated`, as the article on main-actor isolation says: a key's
// values are built wherever it is first read.
import TinyDependency
import TinyDependencyFactories
import TinyDependencyLifecycle

// MARK: - A session

struct User: Sendable, Equatable {
  var name: String
}

nonisolated final class Cart: Sendable {
  let owner: String

  init() {
    @Dependency(\.currentUser) var user
    owner = user.name
  }
}

enum Session: DependencyScope {}
enum CheckoutFlow: DependencyScope { typealias Parent = Session }

enum CurrentUserKey: DependencyKey {
  static var defaultValue: User { User(name: "guest") }
}

enum CartKey: DependencyKey {
  static var defaultValue: Cart { Cart() }
  static var lifetime: DependencyLifetime { .scoped(Session.self) }
}

nonisolated extension DependencyValues {
  var currentUser: User {
    get { self[CurrentUserKey.self] }
    set { self[CurrentUserKey.self] = newValue }
  }

  var cart: Cart {
    get { self[CartKey.self] }
    set { self[CartKey.self] = newValue }
  }
}

final class CartScreen {
  @Dependency(\.cart) var cart

  var title: String { "\(cart.owner)'s cart" }
}

func signInAndOut() async throws -> [String] {
  let session = DependencyValues.current.beginScope(Session.self) {
    $0.currentUser = User(name: "ada")
  }
  let first = session.run { CartScreen().title }
  let flow = session.values.beginScope(CheckoutFlow.self)
  let inFlow = flow.run { CartScreen().title }
  let fromValues = session.values.cart.owner
  try await session.end()
  let second = try await withDependencyScope(Session.self) {
    $0.currentUser = User(name: "grace")
  } operation: {
    CartScreen().title
  }
  return [first, inFlow, fromValues, second]
}

// MARK: - Factories

struct DetailModel: Sendable {
  let id: Int
}

nonisolated final class TenantClient: Sendable {
  let tenant: String

  init(tenant: String) { self.tenant = tenant }
}

struct Row: Sendable {
  let number: Int
  let text: String
}

enum DetailModelFactoryKey: DependencyKey {
  static var defaultValue: DependencyFactory<Int, DetailModel> {
    .init { id in DetailModel(id: id) }
  }
}

enum TenantClientFactoryKey: DependencyKey {
  static var defaultValue: DependencyFactory<String, TenantClient> {
    .cached { tenant in TenantClient(tenant: tenant) }
  }
}

enum RowFactoryKey: DependencyKey {
  static var defaultValue: DependencyFactory<(Int, String), Row> {
    .init { number, text in Row(number: number, text: text) }
  }
}

extension DependencyValues {
  var makeDetailModel: DependencyFactory<Int, DetailModel> {
    get { self[DetailModelFactoryKey.self] }
    set { self[DetailModelFactoryKey.self] = newValue }
  }

  var tenantClient: DependencyFactory<String, TenantClient> {
    get { self[TenantClientFactoryKey.self] }
    set { self[TenantClientFactoryKey.self] = newValue }
  }

  var makeRow: DependencyFactory<(Int, String), Row> {
    get { self[RowFactoryKey.self] }
    set { self[RowFactoryKey.self] = newValue }
  }
}

final class DetailScreen {
  @Dependency(\.makeDetailModel) var makeDetailModel
  @Dependency(\.tenantClient) var tenantClient
  @Dependency(\.makeRow) var makeRow

  func open(_ id: Int) -> (DetailModel, TenantClient, Row) {
    (makeDetailModel(id), tenantClient("acme"), makeRow(id, "a"))
  }
}

func openDetails() -> Int {
  withDependencies {
    $0.makeDetailModel = .init { id in DetailModel(id: id + 1) }
  } operation: {
    DetailScreen().open(1).0.id
  }
}
