/// A key whose value is built and used on the main actor, such as a UI-bound service.
///
/// Its values are `@MainActor`: they may create views, touch the app's window or call other
/// main-actor code, with no `assumeIsolated` of yours.
///
/// ```swift
/// @MainActor
/// final class Haptics {
///   func tap() { … }
/// }
///
/// enum HapticsKey: MainActorDependencyKey {
///   @MainActor static var defaultValue: Haptics { Haptics() }
/// }
///
/// extension DependencyValues {
///   @MainActor var haptics: Haptics {
///     get { self[HapticsKey.self] }
///     set { self[HapticsKey.self] = newValue }
///   }
/// }
/// ```
///
/// - The value is built on the main actor, once per container, like a shared
///   ``DependencyKey``'s; scopes override it and share it by the same rules.
/// - Main-actor code reads it synchronously: `DependencyValues.current.haptics`, or
///   `@Dependency(HapticsKey.self) var haptics` in a `@MainActor` type.
/// - Other code awaits it: `await DependencyValues.current[HapticsKey.self]` hops to the main
///   actor, like any main-actor property.
/// - A `@Dependency` of such a key read off the main actor (say, a wrapper handed to another
///   thread) never runs main-actor code there: it stops with a message naming the key, the
///   context and the fix.
///
/// ``testValue`` and ``previewValue`` fall back to ``defaultValue``.
public protocol MainActorDependencyKey: _DependencyKeyMetatype {
  /// The type of the dependency's value; a `@MainActor` class is `Sendable`.
  associatedtype Value: Sendable

  /// The value used in the default (live) context, built on the main actor.
  @MainActor static var defaultValue: Value { get }

  /// The value used in the test context, built on the main actor; falls back to
  /// ``defaultValue``.
  @MainActor static var testValue: Value { get }

  /// The value used in the preview context, built on the main actor; falls back to
  /// ``defaultValue``.
  @MainActor static var previewValue: Value { get }
}

extension MainActorDependencyKey {
  /// Falls back to ``defaultValue``, and notes that it did for the build in progress.
  @MainActor public static var testValue: Value {
    DependencyValues.current.frame?.noteFallback(of: MainActorKey<Self>.self, in: .test)
    return defaultValue
  }

  /// Falls back to ``defaultValue``, and notes that it did for the build in progress.
  @MainActor public static var previewValue: Value {
    DependencyValues.current.frame?.noteFallback(of: MainActorKey<Self>.self, in: .preview)
    return defaultValue
  }
}

extension DependencyValues {
  /// Reads or overrides the value of a main-actor key.
  ///
  /// Reading builds the value on first read in this container, on the main actor. From code
  /// that is not on the main actor, `await` the read.
  ///
  /// - Parameter key: The key type.
  @MainActor
  public subscript<Key: MainActorDependencyKey>(key: Key.Type) -> Key.Value {
    get {
      // The compiler keeps other code out, except through a key path or function value formed
      // on the main actor and called elsewhere: checked here.
      guard MainActorCheck.isOnMainActor() else { stopOffMainActor(Key.self, context: context) }
      return self[MainActorKey<Key>.self]
    }
    set {
      self[MainActorKey<Key>.self] = newValue
    }
  }
}

extension Dependency {
  /// Creates a dependency read through a main-actor key, in a `@MainActor` type.
  ///
  /// ```swift
  /// @MainActor
  /// final class CheckoutModel {
  ///   @Dependency(HapticsKey.self) var haptics
  /// }
  /// ```
  ///
  /// Reading it off the main actor stops with a message that names the key: its value is
  /// main-actor code.
  ///
  /// - Parameter key: The key type.
  @MainActor
  public init<Key: MainActorDependencyKey>(_ key: Key.Type) where Key.Value == Value {
    self.init(reader: { readOnMainActor(Key.self, from: $0) })
  }
}

extension MainActorDependencyKey {
  /// The key this one's values are stored under, for the validator of TinyDependencyTesting.
  package static var storageKey: any DependencyKey.Type { MainActorKey<Self>.self }
}

/// The ``DependencyKey`` a main-actor key is stored under: built by the same machinery, its
/// values built on the main actor, and never off it.
enum MainActorKey<Key: MainActorDependencyKey>: DependencyKey, WrapperKey {
  static var wrappedKey: Any.Type { Key.self }
  static var defaultValue: Key.Value { onMainActor(.default) { Key.defaultValue } }
  static var testValue: Key.Value { onMainActor(.test) { Key.testValue } }
  static var previewValue: Key.Value { onMainActor(.preview) { Key.previewValue } }

  private static func onMainActor(
    _ context: DependencyContext,
    _ build: @MainActor () -> Key.Value
  ) -> Key.Value {
    guard MainActorCheck.isOnMainActor() else { stopOffMainActor(Key.self, context: context) }
    return MainActorCheck.run(build)
  }
}

/// Reads a main-actor key for a ``Dependency``: on the main actor, or not at all.
private func readOnMainActor<Key: MainActorDependencyKey>(
  _ key: Key.Type,
  from values: DependencyValues
) -> Key.Value {
  guard MainActorCheck.isOnMainActor() else {
    stopOffMainActor(Key.self, context: values.context)
  }
  return MainActorCheck.run { values[Key.self] }
}

/// Stops because main-actor code would run off the main actor.
func stopOffMainActor<Key: MainActorDependencyKey>(
  _ key: Key.Type,
  context: DependencyContext
) -> Never {
  let name = _typeName(Key.self, qualified: false)
  let message = """
    TinyDependency: \(name) is a main-actor dependency (MainActorDependencyKey), read off the \
    main actor in the \(context) context. Its value is built and used on the main actor only, \
    so the read stops rather than run main-actor code on this thread.
    Fix: read it from @MainActor code, or await it from elsewhere: \
    `await DependencyValues.current[\(name).self]` (or `await MainActor.run { … }`). A \
    @Dependency(\(name).self) belongs to a @MainActor type; don't hand it to other threads.
    """
  SystemInterface.writeToStandardError(message)
  fatalError(message)
}
