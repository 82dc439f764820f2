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

  /// Dictionary buckets come from the low bits: the product's high half, which every bit of the
  /// address reaches, is folded into them.
  func _rawHashValue(seed: Int) -> Int {
    let product =
      (UInt64(UInt(bitPattern: id)) ^ UInt64(UInt(bitPattern: seed)))
      &* 0x9E37_79B9_7F4A_7C15
    return Int(truncatingIfNeeded: product ^ (product >> 32))
  }
}
