/// A key that names a dependency and supplies its value for each context.
///
/// Declare a key, then register it SwiftUI-style as a computed property on
/// ``DependencyValues``:
///
/// ```swift
/// private enum LoggerKey: DependencyKey {
///   static let defaultValue: any Logger = ConsoleLogger()
///   static let testValue: any Logger = SilentLogger()
/// }
///
/// extension DependencyValues {
///   var logger: any Logger {
///     get { self[LoggerKey.self] }
///     set { self[LoggerKey.self] = newValue }
///   }
/// }
/// ```
///
/// ``testValue`` and ``previewValue`` fall back to ``defaultValue`` when a key doesn't declare
/// them. Which one is used is decided at run time by
/// ``DependencyContext``, never by a compile-time flag.
/// A value is built once per container on first use, unless ``lifetime`` says otherwise.
///
/// With Swift 6.2 and later a key's metatype is `Sendable` (`SendableMetatype`): its conformance
/// is never isolated to an actor, so a key declared in a module whose default isolation is the
/// main actor is read from any thread, detached tasks and actors included.
///
/// A key refines ``TestDependencyKey``, which declares the test and preview values: an interface
/// module may conform to that one alone, and a live module add this conformance.
public protocol DependencyKey: TestDependencyKey {
  /// The type of the dependency's value (a ``TestDependencyKey``'s), restated so that it is
  /// inferred from ``defaultValue``.
  associatedtype Value

  /// The value used in the default (live) context: the real implementation.
  static var defaultValue: Value { get }

  // Restated from `TestDependencyKey`: they share its witnesses, so a key whose test value an
  // interface module declared keeps it (and its preview fallback) when the live module adds
  // this conformance.

  /// The value used in the test context; falls back to ``defaultValue``.
  static var testValue: Value { get }

  /// The value used in the preview context; falls back to ``defaultValue``, or, for a key whose
  /// ``TestDependencyKey`` conformance came first, to ``testValue``.
  static var previewValue: Value { get }

  /// How the value is provided: built once per container (``DependencyLifetime/shared``), on
  /// every read (``DependencyLifetime/transient``), given to the container
  /// (``DependencyLifetime/input``), or once per instance of a scope
  /// (``DependencyLifetime/scoped(_:)``).
  static var lifetime: DependencyLifetime { get }
}

#if compiler(>=6.2)
  /// What key protocols refine: `SendableMetatype`, so that no key conforms with an isolation.
  public typealias _DependencyKeyMetatype = SendableMetatype
#else
  /// What key protocols refine: nothing before Swift 6.2, which brought `SendableMetatype`.
  public typealias _DependencyKeyMetatype = Any
#endif

extension DependencyKey {
  /// Falls back to ``defaultValue``, and notes that it did for the build in progress (the
  /// validator and strict mode of TinyDependencyTesting report it).
  public static var testValue: Value {
    noteFallback(in: .test)
    return defaultValue
  }

  /// Falls back to ``defaultValue``, and notes that it did for the build in progress.
  public static var previewValue: Value {
    noteFallback(in: .preview)
    return defaultValue
  }

  /// Values are built once per container.
  public static var lifetime: DependencyLifetime { .shared }
}

extension DependencyKey {
  /// Builds the value that `context` selects.
  static func value(for context: DependencyContext) -> Value {
    switch context {
    case .default: defaultValue
    case .test: testValue
    case .preview: previewValue
    }
  }

  /// Builds the value that `context` selects, boxed. The one place a build names
  /// `Box<Value>`: unspecialized, each function or closure that names a generic type looks its
  /// metadata up again (about 330 instructions each time).
  @inline(never)
  static func boxedValue(for context: DependencyContext) -> AnyBox {
    Box(value(for: context))
  }

  /// A short, readable name for messages: `LoggerKey`, `Outer.LoggerKey`.
  static var debugName: String { KeyType.name(of: Self.self) }
}

/// How often a key's value is built.
///
/// ```swift
/// enum RequestIDKey: DependencyKey {
///   static var defaultValue: RequestID { RequestID.random() }
///   static var lifetime: DependencyLifetime { .transient }
/// }
/// ```
public struct DependencyLifetime: Sendable, Hashable, CustomStringConvertible {
  enum Kind: Sendable, Hashable {
    case shared
    case transient
    case input
    case scoped(ScopeType)
  }

  let kind: Kind

  /// Built once per container on first read and reused by every later read in that container.
  public static let shared = DependencyLifetime(kind: .shared)

  /// Built anew on every read, like a factory; nothing is cached.
  public static let transient = DependencyLifetime(kind: .transient)

  /// No default value: the container must be given one (see ``DependencyInputKey``).
  public static let input = DependencyLifetime(kind: .input)

  /// The lifetime's name: `shared`, `transient`, `input` or `scoped(Session)`.
  public var description: String {
    switch kind {
    case .shared: "shared"
    case .transient: "transient"
    case .input: "input"
    case .scoped(let scope): "scoped(\(scope.name))"
    }
  }
}
