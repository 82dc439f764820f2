/// A storage's entries by key: a dictionary whose keys hash with one multiplication.
///
/// A first read looks its key up here three times (look, claim, keep). Hashed as an
/// `ObjectIdentifier`, each lookup ran SipHash, about 90 instructions; key identities are type
/// metadata addresses, never chosen by an attacker, so a multiplicative hash is enough
/// (`allocations.firstRead` instruction counts, DependencyStorage+Resolution.swift).
struct EntryTable<Entry> {
  private var storage: [KeyID: Entry] = [:]

  subscript(id: ObjectIdentifier) -> Entry? {
    get { storage[KeyID(id)] }
    set { storage[KeyID(id)] = newValue }
  }

  var values: Dictionary<KeyID, Entry>.Values { storage.values }
}

/// A key identity with a cheap hash, for the tables a first read goes through.
struct KeyID: Hashable {
  let id: ObjectIdentifier

  init(_ id: ObjectIdentifier) { self.id = id }

  func hash(into hasher: inout Hasher) { hasher.combine(id) }

  /// Dictionary buckets come from the low bits, which ``PersistentMap/hash(_:seed:)`` mixes.
  func _rawHashValue(seed: Int) -> Int {
    Int(truncatingIfNeeded: PersistentMap.hash(id, seed: seed))
  }
}
