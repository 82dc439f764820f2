/// A named lifetime, such as a signed-in user's session or a screen's flow, whose instances
/// own the values of the keys scoped to it.
///
/// A key whose ``DependencyKey/lifetime`` is ``DependencyLifetime/scoped(_:)`` is built once in
/// each instance of its scope and shared by everything in that instance; a sibling instance
/// never sees it. Begin an instance with ``DependencyValues/beginScope(_:_:)``:
///
/// ```swift
/// enum Session: DependencyScope {}
/// enum Checkout: DependencyScope { typealias Parent = Session }
///
/// let session = DependencyValues.current.beginScope(Session.self) { $0[UserKey.self] = "ada" }
/// session.run { /* every read of a session-scoped key here gets one value */ }
/// try await session.end()  // TinyDependencyLifecycle: shuts the session's values down
/// ```
public protocol DependencyScope: _DependencyKeyMetatype {
  /// The scope an instance of this one is begun in: ``RootScope`` (the process, or a test's
  /// root) unless the scope names another.
  associatedtype Parent: DependencyScope = RootScope
}

/// The scope of the process, or in tests of the test's root: the parent of every scope that
/// names no other.
public enum RootScope: DependencyScope {
  /// The root has no scope around it: its parent is itself.
  public typealias Parent = RootScope
}

extension DependencyLifetime {
  /// Built once per instance of `scope`, on its first read there, and kept by that instance;
  /// reading it where no instance of `scope` is open stops (in tests, records an issue).
  public static func scoped<S: DependencyScope>(_ scope: S.Type) -> DependencyLifetime {
    DependencyLifetime(kind: .scoped(ScopeType(S.self)))
  }
}

extension DependencyValues {
  /// Begins an instance of `scope` in this container, with `update`'s overrides: its scoped
  /// values are built in it, shared by everything run in it, and ended with it.
  ///
  /// Beginning a scope whose ``DependencyScope/Parent`` is not ``RootScope`` stops unless an
  /// instance of the parent is open here. End the instance with `end()`
  /// (TinyDependencyLifecycle), which shuts its own values down.
  ///
  /// - Parameters:
  ///   - scope: The scope to begin an instance of.
  ///   - update: Sets the instance's own values (its user, its tenant).
  /// - Returns: The instance: run work in it, read its ``DependencyScopeInstance/values``.
  public func beginScope<S: DependencyScope>(
    _ scope: S.Type,
    _ update: (inout DependencyValues) throws -> Void
  ) rethrows -> DependencyScopeInstance<S> {
    var values = self
    try update(&values)
    values.prepareToMutate()
    values.storage.begin(ScopeInstance(ScopeType(S.self), in: values.storage))
    return DependencyScopeInstance(values: values)
  }

  /// Begins an instance of `scope` in this container, with no overrides of its own.
  public func beginScope<S: DependencyScope>(_ scope: S.Type) -> DependencyScopeInstance<S> {
    beginScope(S.self) { _ in }
  }
}

/// An open instance of a ``DependencyScope``: the container its scoped values are built in.
///
/// A value: copies are the same instance, whose state (open or ended) its container keeps.
public struct DependencyScopeInstance<S: DependencyScope>: Sendable {
  /// The instance's container, for code that takes a container explicitly.
  public let values: DependencyValues

  init(values: DependencyValues) { self.values = values }

  /// Runs `operation` with the instance's container bound as ``DependencyValues/current``.
  ///
  /// - Returns: What `operation` returns.
  public func run<R>(_ operation: () throws -> R) rethrows -> R {
    values.storage.instance?.stopIfEnded()
    return try values.bind(operation)
  }

  /// Runs `operation` with the instance's container bound as ``DependencyValues/current``.
  ///
  /// - Returns: What `operation` returns.
  public func run<R>(
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> R
  ) async rethrows -> R {
    values.storage.instance?.stopIfEnded()
    return try await values.bind(isolation: isolation, operation)
  }
}
