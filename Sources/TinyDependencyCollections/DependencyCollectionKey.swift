public import TinyDependency

/// A key whose value is the ordered list of its members' values, each member a key of its own.
///
/// A collection declares its element type and nothing else: no `defaultValue`. Its members are
/// keys that conform to ``DependencyContribution`` and are added to a container with
/// ``TinyDependency/DependencyValues/contribute(_:fileID:filePath:line:column:)-7rks2``, usually by a
/// ``DependencyModule``:
///
/// ```swift
/// protocol Plugin: Sendable { var name: String { get } }
///
/// enum PluginsKey: DependencyCollectionKey {
///   typealias Element = any Plugin
/// }
///
/// enum SearchPluginKey: DependencyContribution {
///   typealias Collection = PluginsKey
///   static let defaultValue: any Plugin = SearchPlugin()
/// }
///
/// prepareDependencies { $0.contribute(SearchPluginKey.self) }
/// let plugins = DependencyValues.current[PluginsKey.self]  // [SearchPlugin()]
/// ```
///
/// In every context the value is the members' values, each read as the key it is (so its
/// `testValue`, an override or its lifetime applies), in the order they were contributed. The
/// collection is built once per container like any shared key, and it reads its members as a
/// build reads keys: a scope that overrides one member builds the collection again there, and
/// only there.
///
/// Reading a collection that has no member stops with a message naming the key and
/// `contribute` (in a test, it records an issue and reads as empty), unless ``allowsEmpty``.
public protocol DependencyCollectionKey: DependencyKey where Value == [Element] {
  /// The type of the members' values.
  associatedtype Element: Sendable

  /// Whether the collection may be read with no member; `false` unless the key says otherwise.
  static var allowsEmpty: Bool { get }
}

extension DependencyCollectionKey {
  /// A collection must have a member to be read, unless it declares otherwise.
  public static var allowsEmpty: Bool { false }

  /// The members' values, in the order they were contributed to the container being read.
  public static var defaultValue: [Element] { Members.elements(of: Self.self) }

  /// The members' values; each member gives its own test value.
  public static var testValue: [Element] { Members.elements(of: Self.self) }

  /// The members' values; each member gives its own preview value.
  public static var previewValue: [Element] { Members.elements(of: Self.self) }
}

/// A key whose value is one member of a ``DependencyCollectionKey``.
///
/// A member is an ordinary key: it declares its values for each context and its lifetime, it
/// can be overridden in a scope, and a graph shows it under its collection. Add it to a
/// container with ``TinyDependency/DependencyValues/contribute(_:fileID:filePath:line:column:)-7rks2``.
///
/// ```swift
/// enum SearchPluginKey: DependencyContribution {
///   typealias Collection = PluginsKey
///   static let defaultValue: any Plugin = SearchPlugin()
///   static let testValue: any Plugin = SearchPlugin(index: .empty)
/// }
/// ```
public protocol DependencyContribution: DependencyKey {
  /// The collection this key's value is a member of.
  associatedtype Collection: DependencyCollectionKey where Collection.Element == Value
}
