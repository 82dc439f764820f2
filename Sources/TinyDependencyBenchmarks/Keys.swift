import TinyDependency

/// The key every read case reads.
enum BenchValueKey: DependencyKey {
  static let defaultValue = 42
}

/// A second key, overridden by scopes that must differ from the captured one.
enum OtherValueKey: DependencyKey {
  static let defaultValue = 0
}

extension DependencyValues {
  var benchValue: Int {
    get { self[BenchValueKey.self] }
    set { self[BenchValueKey.self] = newValue }
  }
  var otherValue: Int {
    get { self[OtherValueKey.self] }
    set { self[OtherValueKey.self] = newValue }
  }
}

/// A model that reads the key through the property wrapper.
struct Model: Sendable {
  @Dependency(\.benchValue) var value
}

/// A model with three wrappers, which share one capture of the scope they are made in.
struct ThreeWrapperModel: Sendable {
  @Dependency(\.benchValue) var value
  @Dependency(\.otherValue) var other
  @Dependency(\.benchValue) var again
}

/// The form a `Sendable` class holds: a `Dependency` in a `let`, called.
final class LetModel: Sendable {
  let value = Dependency(\.benchValue)
}

// MARK: - Generated keys

/// Keys whose value is an `Int`, so generated ones can be set and read through an existential.
protocol IntKey: DependencyKey where Value == Int {}

enum Zero {}
enum One {}
enum Pair<High, Low> {}

/// One distinct key type per tag type.
enum GeneratedKey<Tag>: IntKey {
  static var defaultValue: Int { 1 }
}

/// Makes `count` distinct key types at run time: each is `GeneratedKey<T>` for a distinct
/// type `T` spelled in binary with `Pair`, `Zero` and `One`.
func generatedKeys(_ count: Int) -> [any IntKey.Type] {
  func pair<High, Low>(_ high: High.Type, _ low: Low.Type) -> Any.Type { Pair<High, Low>.self }
  func key<Tag>(_ tag: Tag.Type) -> any IntKey.Type { GeneratedKey<Tag>.self }
  return (0..<count).map { number in
    var tag: Any.Type = Zero.self
    for bit in 0..<16 {
      let digit: Any.Type = (number >> bit) & 1 == 1 ? One.self : Zero.self
      tag = pair(digit, tag)
    }
    return key(tag)
  }
}

func set<Key: IntKey>(_ key: Key.Type, _ value: Int, in values: inout DependencyValues) {
  values[key] = value
}

func read<Key: IntKey>(_ key: Key.Type, from values: DependencyValues) -> Int {
  values[key]
}

// MARK: - The raw baseline

/// What the design calls the limit: a task-local struct holding a dictionary.
struct RawValues: Sendable {
  var storage: [ObjectIdentifier: any Sendable]
}

enum Raw {
  @TaskLocal static var current = RawValues(storage: [ObjectIdentifier(BenchValueKey.self): 42])
}

/// A copy of the raw values with the one key set, as entering a raw scope makes.
@inline(never)
func rawValues(setting value: Int) -> RawValues {
  var values = Raw.current
  values.storage[ObjectIdentifier(BenchValueKey.self)] = value
  return values
}

/// A raw read: the task-local, a dictionary lookup and a cast.
@inline(never)
func rawRead() -> Int {
  Raw.current.storage[ObjectIdentifier(BenchValueKey.self)] as! Int
}

// MARK: - Server-shaped loops

/// A request handler built as a key's value: its wrapper captures the request's scope.
///
/// `@unchecked Sendable`: a property wrapper's backing storage is a `var`, never written.
final class RequestHandler: @unchecked Sendable {
  @Dependency(\.benchValue) var requestID
}

enum RequestHandlerKey: DependencyKey {
  static var defaultValue: RequestHandler { RequestHandler() }
}
