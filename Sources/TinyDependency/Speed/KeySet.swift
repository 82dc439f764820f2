/// A set of key identifiers that keeps up to two of them inline: most scopes override one or
/// two keys, and entering one should not allocate a hash table to say which.
struct KeySet: Sequence, Sendable {
  private var first: ObjectIdentifier?
  private var second: ObjectIdentifier?
  /// The keys after the first two.
  private var rest: Set<ObjectIdentifier> = []

  init() {}

  init(_ keys: some Sequence<ObjectIdentifier>) {
    for key in keys { insert(key) }
  }

  var isEmpty: Bool { first == nil }

  func contains(_ key: ObjectIdentifier) -> Bool {
    first == key || second == key || (!rest.isEmpty && rest.contains(key))
  }

  mutating func insert(_ key: ObjectIdentifier) {
    if contains(key) { return }
    if first == nil {
      first = key
    } else if second == nil {
      second = key
    } else {
      rest.insert(key)
    }
  }

  mutating func formUnion(_ other: KeySet) {
    for key in other { insert(key) }
  }

  func isSubset(of other: KeySet) -> Bool {
    allSatisfy(other.contains)
  }

  /// Whether no key of this set is in `keys`.
  func isDisjoint(with keys: Set<ObjectIdentifier>) -> Bool {
    if keys.isEmpty { return true }
    return !contains(where: keys.contains)
  }

  struct Iterator: IteratorProtocol {
    fileprivate var inline: (ObjectIdentifier?, ObjectIdentifier?)
    fileprivate var rest: Set<ObjectIdentifier>.Iterator

    mutating func next() -> ObjectIdentifier? {
      if let key = inline.0 {
        inline.0 = nil
        return key
      }
      if let key = inline.1 {
        inline.1 = nil
        return key
      }
      return rest.next()
    }
  }

  func makeIterator() -> Iterator {
    Iterator(inline: (first, second), rest: rest.makeIterator())
  }
}
