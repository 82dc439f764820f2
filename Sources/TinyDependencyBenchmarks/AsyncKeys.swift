import TinyDependency
import TinyDependencyLifecycle

// MARK: - Chains of async keys

/// An async key whose build awaits its predecessor in a chain (if any), then sleeps 1 ms.
enum ChainKey<Tag>: AsyncDependencyKey {
  static func makeDefault() async throws -> Int {
    if let predecessor = chainPredecessors[ObjectIdentifier(Self.self)] {
      _ = try await prepared(predecessor)
    }
    try await Task.sleep(nanoseconds: 1_000_000)
    return 1
  }
}

/// Awaits an async key's value in the current container.
func prepared(_ key: any AsyncDependencyKey.Type) async throws -> any Sendable {
  func open<Key: AsyncDependencyKey>(_ key: Key.Type) async throws -> any Sendable {
    try await DependencyValues.current.prepared(key)
  }
  return try await open(key)
}

/// `chainCount` chains of `length` keys each: key `i` of a chain awaits key `i - 1`.
func chainKeys(chains chainCount: Int, length: Int) -> [[any AsyncDependencyKey.Type]] {
  func pair<High, Low>(_ high: High.Type, _ low: Low.Type) -> Any.Type { Pair<High, Low>.self }
  func key<Tag>(_ tag: Tag.Type) -> any AsyncDependencyKey.Type { ChainKey<Tag>.self }
  return (0..<chainCount).map { chain in
    (0..<length).map { index in
      let number = chain * length + index
      var tag: Any.Type = Zero.self
      for bit in 0..<16 {
        let digit: Any.Type = (number >> bit) & 1 == 1 ? One.self : Zero.self
        tag = pair(digit, tag)
      }
      return key(tag)
    }
  }
}

#if compiler(>=6.2)
  /// 10 chains of 100 keys, made once; the first chain alone is the critical path.
  let chains = chainKeys(chains: 10, length: 100)
#else
  /// 10 chains of 100 keys; `nonisolated(unsafe)`: key metatypes are immutable, and
  /// `SendableMetatype` (Swift 6.2) is what makes them `Sendable`.
  nonisolated(unsafe) let chains = chainKeys(chains: 10, length: 100)
#endif

/// Each chain key's predecessor, by the key's identity.
#if compiler(>=6.2)
  let chainPredecessors: [ObjectIdentifier: any AsyncDependencyKey.Type] = {
    var result: [ObjectIdentifier: any AsyncDependencyKey.Type] = [:]
    for chain in chains {
      for (index, key) in chain.enumerated().dropFirst() {
        result[ObjectIdentifier(key)] = chain[index - 1]
      }
    }
    return result
  }()
#else
  nonisolated(unsafe) let chainPredecessors: [ObjectIdentifier: any AsyncDependencyKey.Type] = {
    var result: [ObjectIdentifier: any AsyncDependencyKey.Type] = [:]
    for chain in chains {
      for (index, key) in chain.enumerated().dropFirst() {
        result[ObjectIdentifier(key)] = chain[index - 1]
      }
    }
    return result
  }()
#endif

/// Median wall time, in nanoseconds, of preparing `keys` in a fresh container.
func preparationTime(_ keys: [any AsyncDependencyKey.Type], repetitions: Int) async -> Double {
  var samples: [Double] = []
  for _ in 0..<repetitions {
    let values = DependencyValues(context: .default)
    let start = now()
    do {
      try await values.prepare(keys)
    } catch {
      fatalError("prepare failed: \(error)")
    }
    samples.append(Double(now() - start))
  }
  samples.sort()
  return samples[samples.count / 2]
}

// MARK: - Request scopes

enum T1 {}
enum T2 {}
enum T3 {}
enum T4 {}
enum T5 {}

/// A synchronous key per tag.
enum SyncServiceKey<Tag>: DependencyKey {
  static var defaultValue: Int { 1 }
}

/// An async key per tag.
enum AsyncServiceKey<Tag>: AsyncDependencyKey {
  static func makeDefault() async throws -> Int { 1 }
}

/// The request's identity, overridden by each request scope.
enum RequestNumberKey: DependencyKey {
  static let defaultValue = 0
}

/// Built from the request's number, so each request scope builds its own.
enum RequestEchoKey: DependencyKey {
  static var defaultValue: Int { DependencyValues.current[RequestNumberKey.self] + 1 }
}

// MARK: - Prepared reads

/// The async key read by `dependency.prepared`.
enum PreparedValueKey: AsyncDependencyKey {
  static func makeDefault() async throws -> Int { 42 }
}

extension DependencyValues {
  var preparedValue: Int {
    get { self[PreparedValueKey.self] }
    set { self[PreparedValueKey.self] = newValue }
  }
}

/// A model that reads a prepared async key through the property wrapper.
struct PreparedModel: Sendable {
  @Dependency(\.preparedValue) var value
}
