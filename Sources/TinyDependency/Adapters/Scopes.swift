/// What the graph and the validator read of named scopes (`DependencyScope.swift`).
extension DependencyLifetime {
  /// For a scoped lifetime, its scope's name, then the names of the scopes around it, out to
  /// the root (excluded); nil for the other lifetimes.
  package var scopeChain: [String]? {
    guard case .scoped(let scope) = kind else { return nil }
    return sequence(first: scope, next: \.parent).map(\.name)
  }

  /// Whether a value of this lifetime that reads a value of `inner` holds it captive: it lives
  /// longer (shared, or a scope around `inner`'s).
  package func holdsCaptive(_ inner: DependencyLifetime) -> Bool {
    guard case .scoped(let scope) = inner.kind else { return false }
    switch kind {
    case .shared: return true
    case .transient, .input: return false
    case .scoped(let outer):
      return sequence(first: scope, next: \.parent).dropFirst().contains(outer)
    }
  }
}
