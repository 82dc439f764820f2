import Testing
import TinyDependency
import TinyDependencyFactories
import TinyDependencyLifecycle

// The code of Making-values-from-run-time-arguments.md, Isolating-values-to-any-global-actor.md
// and Examples.md sections 14 and 15, line for line.

enum CatalogNameKey: DependencyKey {
  static let defaultValue = "Main"
}

extension DependencyValues {
  var catalogName: String {
    get { self[CatalogNameKey.self] }
    set { self[CatalogNameKey.self] = newValue }
  }
}

struct ItemDetailModel: Sendable {
  let id: Int
  let title: String

  init(id: Int) {
    @Dependency(\.catalogName) var catalogName
    self.id = id
    self.title = "\(catalogName) #\(id)"
  }
}

enum ItemDetailFactoryKey: DependencyKey {
  static var defaultValue: DependencyFactory<Int, ItemDetailModel> {
    .init { id in ItemDetailModel(id: id) }
  }
  static var testValue: DependencyFactory<Int, ItemDetailModel> { defaultValue }
}

extension DependencyValues {
  var makeItemDetail: DependencyFactory<Int, ItemDetailModel> {
    get { self[ItemDetailFactoryKey.self] }
    set { self[ItemDetailFactoryKey.self] = newValue }
  }
}

func openItem(_ id: Int) -> ItemDetailModel {
  @Dependency(\.makeItemDetail) var makeItemDetail
  return makeItemDetail(id)
}

func itemsInTwoCatalogs() -> [String] {
  @Dependency(\.makeItemDetail) var makeItemDetail
  let summer = withDependencies {
    $0.catalogName = "Summer"
  } operation: {
    makeItemDetail(1).title
  }
  return [makeItemDetail(1).title, summer]
}

struct PriceRow: Sendable, Equatable {
  let sku: String
  let cents: Int
}

enum PriceRowFactoryKey: DependencyKey {
  static var defaultValue: DependencyFactory<(String, Int), PriceRow> {
    .init { sku, cents in PriceRow(sku: sku, cents: cents) }
  }
  static var testValue: DependencyFactory<(String, Int), PriceRow> { defaultValue }
}

func firstRow() -> PriceRow {
  let makeRow = DependencyValues.current[PriceRowFactoryKey.self]
  return makeRow("A-1", 250)
}

final class TenantConnection: Sendable {
  let tenant: String
  init(tenant: String) { self.tenant = tenant }
}

enum TenantConnectionKey: DependencyKey {
  static var defaultValue: DependencyFactory<String, TenantConnection> {
    .cached { tenant in TenantConnection(tenant: tenant) }
  }
  static var testValue: DependencyFactory<String, TenantConnection> { defaultValue }
}

func sameConnectionTwice() -> Bool {
  let connection = DependencyValues.current[TenantConnectionKey.self]
  return connection("acme") === connection("acme")
}

func mockedDetail() -> String {
  withDependencies {
    $0.makeItemDetail = .init { id in ItemDetailModel(id: -id) }
  } operation: {
    openItem(3).title
  }
}

@globalActor
actor StorageActor {
  static let shared = StorageActor()
}

@StorageActor
final class OrderStore {
  let label: String

  init(label: String) {
    StorageActor.shared.preconditionIsolated()
    self.label = label
  }

  func count() -> Int { label.count }
}

enum OrderStoreKey: AsyncDependencyKey {
  @StorageActor static func makeDefault() async throws -> OrderStore {
    OrderStore(label: "live")
  }
  @StorageActor static func makeTest() async throws -> OrderStore {
    OrderStore(label: "test")
  }
}

@StorageActor
final class OrderReport {
  @Dependency(OrderStoreKey.self) var store

  func render() -> String { "\(store.label): \(store.count())" }
}

func startOrders() async throws -> String {
  let values = DependencyValues(context: .default)
  try await values.prepare([OrderStoreKey.self])
  return await withDependencies(values) {
    await OrderReport().render()
  }
}

// MARK: - Examples.md

@Test func detailModelsRowsAndConnectionsAreMadeForTheirArguments() {
  withDependencies {
    $0.catalogName = "Winter"
  } operation: {
    #expect(openItem(7).title == "Winter #7")
    #expect(firstRow() == PriceRow(sku: "A-1", cents: 250))
    #expect(sameConnectionTwice())
  }
  #expect(itemsInTwoCatalogs() == ["Main #1", "Summer #1"])
  #expect(mockedDetail() == "Main #-3")
}

@Test func ordersAreCountedOnTheStorageActor() async throws {
  #expect(try await startOrders() == "live: 4")
}

@Test func testsPrepareTheTestStoreOnTheActor() async throws {
  try await DependencyValues.current.prepare([OrderStoreKey.self])
  #expect(await OrderReport().render() == "test: 4")
}
