import Testing
// The compiled copies of TinyDependencyCollections.docc's blocks, in the order they appear.
import TinyDependency
import TinyDependencyCollections
import TinyDependencyTesting

// MARK: - Collections and modules: a collection and its members

protocol Exporter: Sendable {
  var format: String { get }
  func export(_ text: String) -> String
}

struct PlainExporter: Exporter {
  let format: String
  func export(_ text: String) -> String { "\(format): \(text)" }
}

enum ExportersKey: DependencyCollectionKey {
  typealias Element = any Exporter
}

enum PDFExporterKey: DependencyContribution {
  typealias Collection = ExportersKey
  static var defaultValue: any Exporter { PlainExporter(format: "pdf") }
  static var testValue: any Exporter { PlainExporter(format: "test pdf") }
}

enum CSVExporterKey: DependencyContribution {
  typealias Collection = ExportersKey
  static var defaultValue: any Exporter { PlainExporter(format: "csv") }
  static var testValue: any Exporter { PlainExporter(format: "test csv") }
}

extension DependencyValues {
  var exporters: [any Exporter] { self[ExportersKey.self] }
}

// MARK: - A map

enum CommandsKey: DependencyMapKey {
  typealias MapKey = String
  typealias Element = @Sendable (String) -> String
}

enum UppercaseCommandKey: DependencyMapContribution {
  typealias Map = CommandsKey
  static let mapKey = "upper"
  static var defaultValue: @Sendable (String) -> String { { $0.uppercased() } }
}

// MARK: - Modules

enum ExportModule: DependencyModule {
  static func register(_ values: inout DependencyValues) {
    values.contribute(PDFExporterKey.self)
    values.contribute(CSVExporterKey.self)
  }
}

enum EditorModule: DependencyModule {
  static func register(_ values: inout DependencyValues) {
    values.register(ExportModule.self)
    values.contribute(UppercaseCommandKey.self)
  }
}

func exportAll(_ text: String) -> [String] {
  @Dependency(\.exporters) var exporters
  return exporters.map { $0.export(text) }
}

func serverRoot() -> DependencyValues {
  var root = DependencyValues(context: .default)
  root.register(EditorModule.self)
  return root
}

// MARK: - Tags: two values of one type under two keys

struct DatabaseHandle: Sendable {
  let host: String
}

enum PrimaryDatabaseKey: DependencyKey {
  static let defaultValue = DatabaseHandle(host: "db-primary")
}

enum ReplicaDatabaseKey: DependencyKey {
  static let defaultValue = DatabaseHandle(host: "db-replica")
}

extension DependencyValues {
  var primaryDatabase: DatabaseHandle {
    get { self[PrimaryDatabaseKey.self] }
    set { self[PrimaryDatabaseKey.self] = newValue }
  }
  var replicaDatabase: DatabaseHandle {
    get { self[ReplicaDatabaseKey.self] }
    set { self[ReplicaDatabaseKey.self] = newValue }
  }
}

// MARK: - Tags: a generic key family

protocol CacheName { static var name: String { get } }
enum ImagesCache: CacheName { static let name = "images" }
enum FeedCache: CacheName { static let name = "feed" }

struct Cache: Sendable {
  let name: String
}

enum CacheKey<Name: CacheName>: DependencyKey {
  static var defaultValue: Cache { Cache(name: Name.name) }
}

// MARK: - Tags: one value in two collections

enum ShareTargetsKey: DependencyCollectionKey {
  typealias Element = any Exporter
}

enum PDFShareTargetKey: DependencyContribution {
  typealias Collection = ShareTargetsKey
  static var defaultValue: any Exporter { DependencyValues.current[PDFExporterKey.self] }
}

// MARK: - The examples do what the article says

@Suite("The collections article's examples work")
struct CollectionsArticleTests {
  @Test(.dependencies { $0.register(EditorModule.self) })
  func aTestRegistersTheModuleItNeeds() {
    #expect(exportAll("hi") == ["test pdf: hi", "test csv: hi"])
    #expect(DependencyValues.current[CommandsKey.self]["upper"]?("hi") == "HI")
  }

  @Test func aServerRootRegistersItsModules() {
    #expect(serverRoot().exporters.map(\.format) == ["pdf", "csv"])
  }

  @Test func tagsAreKeys() {
    let values = DependencyValues(context: .default)
    #expect(values.primaryDatabase.host == "db-primary")
    #expect(values.replicaDatabase.host == "db-replica")
    #expect(values[CacheKey<ImagesCache>.self].name == "images")
    #expect(values[CacheKey<FeedCache>.self].name == "feed")
  }
}
