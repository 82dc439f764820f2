import TinyDependency
import TinyDependencyLifecycle

// Async keys whose builds await each other in loops, for the cycle tests.

/// Prepares ``PairLoopingKey`` and ``PairQuickKey`` together from inside its own build, so it
/// awaits both at once.
enum PairPreparingKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Int {
    try await DependencyValues.current.prepare([PairLoopingKey.self, PairQuickKey.self])
    return 1
  }
}

/// Awaits ``PairPreparingKey``, which awaits it: a cycle, closed only after ``PairQuickKey``
/// was built and its await ended.
enum PairLoopingKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Int {
    try await Task.sleep(nanoseconds: 100_000_000)
    return try await DependencyValues.current.prepared(PairPreparingKey.self)
  }
}

/// Built soon, awaiting nothing.
enum PairQuickKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Int {
    try await Task.sleep(nanoseconds: 10_000_000)
    return 2
  }
}

/// An async build that reads a synchronous key that reads the async key back.
enum LoopingPoolKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Int { DependencyValues.current[LoopingConfigKey.self] }
}

enum LoopingConfigKey: DependencyKey {
  static var defaultValue: Int { DependencyValues.current[LoopingPoolKey.self] }
}

/// An async build that awaits another, whose synchronous dependency reads the first back.
enum OuterLoopKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Int {
    try await DependencyValues.current.prepared(InnerLoopKey.self)
  }
}

enum InnerLoopKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Int { DependencyValues.current[LoopBridgeKey.self] }
}

enum LoopBridgeKey: DependencyKey {
  static var defaultValue: Int { DependencyValues.current[OuterLoopKey.self] }
}
