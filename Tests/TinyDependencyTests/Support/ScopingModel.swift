// The reference model of ScopingModelTests: what every read should see.

/// The scoping rules, written to be obviously right rather than fast.
///
/// A scope is its overrides and its parent; scope 0 is the root, a container with nothing set.
/// A plain key's value is its innermost override along the chain of parents, else its default;
/// a built key (d, e) is the same, except that its "default" is built from the other keys'
/// values under the same overrides.
struct ModelScopes {
  struct Scope {
    let parent: Int?
    let overrides: [ModelScopeKey: String]
  }

  static let root = 0

  private(set) var scopes = [Scope(parent: nil, overrides: [:])]

  /// Adds a scope nested in `parent`; a key set twice keeps its last value.
  mutating func enter(_ parent: Int, overriding pairs: [(ModelScopeKey, String)]) -> Int {
    var overrides: [ModelScopeKey: String] = [:]
    for (key, value) in pairs {
      overrides[key] = value
    }
    scopes.append(Scope(parent: parent, overrides: overrides))
    return scopes.count - 1
  }

  /// `scope`, its parent, and so on up to the root.
  func chain(_ scope: Int) -> [Int] {
    var chain: [Int] = []
    var next: Int? = scope
    while let current = next {
      chain.append(current)
      next = scopes[current].parent
    }
    return chain
  }

  /// The first override of `key` along `chain`, innermost first.
  func override(_ key: ModelScopeKey, along chain: [Int]) -> String? {
    chain.lazy.compactMap { scopes[$0].overrides[key] }.first
  }

  /// The value `DependencyValues.current` has for `key` while `scope` is current.
  func value(_ key: ModelScopeKey, in scope: Int) -> String {
    let chain = chain(scope)
    return Self.resolve(key) { override($0, along: chain) }
  }

  /// What an object made in scope `made` reads for `key` while `current` is the current scope.
  ///
  /// The scopes of `current`'s chain that are not in `made`'s are the ones below their nearest
  /// common ancestor: their overrides are newer than the capture and win. Every other key
  /// reads as it would in `made`.
  func value(_ key: ModelScopeKey, madeIn made: Int, readIn current: Int) -> String {
    let madeChain = chain(made)
    let newer = chain(current).filter { !madeChain.contains($0) }
    return Self.resolve(key) { override($0, along: newer) ?? override($0, along: madeChain) }
  }

  /// The value of `key` given where overrides come from.
  static func resolve(
    _ key: ModelScopeKey,
    _ override: (ModelScopeKey) -> String?
  ) -> String {
    if let value = override(key) { return value }
    switch key {
    case .a: return "a0"
    case .b: return "b0"
    case .c: return "c0"
    case .d: return "d(\(resolve(.a, override)),\(resolve(.b, override)))"
    case .e: return "e(\(resolve(.d, override)),\(resolve(.c, override)))"
    }
  }
}
