public import TinyDependency

/// A key whose value is a dictionary of its members' values, each member a key of its own.
///
/// Each member conforms to ``DependencyMapContribution`` and names its entry with a map key.
/// Two members with the same map key are a mistake, never "the last one wins": reading the map
/// then stops with both members' names (in a test, it records an issue and keeps the first).
///
/// ```swift
/// enum HandlersKey: DependencyMapKey {
///   typealias MapKey = String
///   typealias Element = any Handler
/// }
///
/// enum SearchHandlerKey: DependencyMapContribution {
///   typealias Map = HandlersKey
///   static let mapKey = "search"
///   static let defaultValue: any Handler = SearchHandler()
/// }
///
/// prepareDependencies { $0.contribute(SearchHandlerKey.self) }
/// let handlers = DependencyValues.current[HandlersKey.self]  // ["search": SearchHandler()]
/// ```
///
/// As for ``DependencyCollectionKey``, every member is read as the key it is, the map is built
/// once per container, and reading a map with no member stops unless ``allowsEmpty``.
public protocol DependencyMapKey: DependencyKey where Value == [MapKey: Element] {
  /// The type of the keys the members are found by.
  associatedtype MapKey: Hashable & Sendable

  /// The type of the members' values.
  associatedtype Element: Sendable

  /// Whether the map may be read with no member; `false` unless the key says otherwise.
  static var allowsEmpty: Bool { get }
}

extension DependencyMapKey {
  /// A map must have a member to be read, unless it declares otherwise.
  public static var allowsEmpty: Bool { false }

  /// The members' values by their map keys, in the container being read.
  public static var defaultValue: [MapKey: Element] { Members.entries(of: Self.self) }

  /// The members' values by their map keys; each member gives its own test value.
  public static var testValue: [MapKey: Element] { Members.entries(of: Self.self) }

  /// The members' values by their map keys; each member gives its own preview value.
  public static var previewValue: [MapKey: Element] { Members.entries(of: Self.self) }
}

/// A key whose value is one entry of a ``DependencyMapKey``, under ``mapKey``.
///
/// ```swift
/// enum SearchHandlerKey: DependencyMapContribution {
///   typealias Map = HandlersKey
///   static let mapKey = "search"
///   static let defaultValue: any Handler = SearchHandler()
/// }
/// ```
public protocol DependencyMapContribution: DependencyKey {
  /// The map this key's value is an entry of.
  associatedtype Map: DependencyMapKey where Map.Element == Value

  /// The key this member's value is found by in the map.
  static var mapKey: Map.MapKey { get }
}
