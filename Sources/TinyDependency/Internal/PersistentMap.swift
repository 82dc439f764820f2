/// An immutable hash map from key types to boxed values, with structural sharing.
///
/// A hash array mapped trie: each node holds up to 32 slots selected by 5 bits of the key's
/// hash, so a lookup touches one node per 32× more entries, and setting a key copies only the
/// nodes on its path. That keeps entering a scope as cheap with 1,000 keys overridden as with
/// none, which a copied `Dictionary` is not. The hash multiplies the key's address by an odd
/// constant, a bijection on 64-bit values, so two keys never share a full hash and no
/// collision buckets are needed.
@usableFromInline
struct PersistentMap: Sendable {
  @usableFromInline
  var root: PersistentMapNode?

  /// The number of keys in the map.
  @usableFromInline
  private(set) var count = 0

  @inlinable
  init() {}

  @inlinable
  static func hash(_ key: ObjectIdentifier) -> UInt64 {
    UInt64(UInt(bitPattern: key)) &* 0x9E37_79B9_7F4A_7C15
  }

  /// The value for `key`, if set.
  @inlinable
  subscript(key: ObjectIdentifier) -> AnyBox? {
    guard var node = root else { return nil }
    var hash = Self.hash(key)
    while true {
      let bit = UInt32(1) << UInt32(truncatingIfNeeded: hash & 31)
      guard node.bitmap & bit != 0 else { return nil }
      let index = (node.bitmap & (bit &- 1)).nonzeroBitCount
      switch node.slots[index] {
      case .entry(let entryKey, let value):
        return entryKey == key ? value : nil
      case .node(let child):
        node = child
        hash >>= 5
      }
    }
  }

  /// Sets `value` for `key`, copying only the nodes on its path.
  mutating func set(_ key: ObjectIdentifier, _ value: AnyBox) {
    let hash = Self.hash(key)
    let (node, added) = (root ?? PersistentMapNode.empty).inserting(
      key,
      value,
      hash: hash,
      shift: 0
    )
    root = node
    if added { count += 1 }
  }

  /// The keys in the map, in no particular order.
  var keys: [ObjectIdentifier] {
    var result: [ObjectIdentifier] = []
    result.reserveCapacity(count)
    root?.collectKeys(into: &result)
    return result
  }
}

/// One node of a ``PersistentMap``: a 32-bit occupancy bitmap and the occupied slots in order.
///
/// Nodes are immutable, so reads need neither locks nor exclusivity checks; an insertion
/// returns new nodes for its path and shares the rest.
@usableFromInline
final class PersistentMapNode: Sendable {
  @usableFromInline
  enum Slot: Sendable {
    case entry(ObjectIdentifier, AnyBox)
    case node(PersistentMapNode)
  }

  @usableFromInline
  let bitmap: UInt32
  @usableFromInline
  let slots: ContiguousArray<Slot>

  static let empty = PersistentMapNode(bitmap: 0, slots: [])

  init(bitmap: UInt32, slots: ContiguousArray<Slot>) {
    self.bitmap = bitmap
    self.slots = slots
  }

  /// This node with `key` set; `added` is false when the key was already present.
  func inserting(
    _ key: ObjectIdentifier,
    _ value: AnyBox,
    hash: UInt64,
    shift: UInt64
  ) -> (node: PersistentMapNode, added: Bool) {
    let bit = UInt32(1) << UInt32(truncatingIfNeeded: (hash >> shift) & 31)
    let index = (bitmap & (bit &- 1)).nonzeroBitCount
    var newSlots = slots
    guard bitmap & bit != 0 else {
      newSlots.insert(.entry(key, value), at: index)
      return (PersistentMapNode(bitmap: bitmap | bit, slots: newSlots), true)
    }
    switch slots[index] {
    case .entry(let existingKey, let existingValue):
      if existingKey == key {
        newSlots[index] = .entry(key, value)
        return (PersistentMapNode(bitmap: bitmap, slots: newSlots), false)
      }
      let existingHash = PersistentMap.hash(existingKey)
      let child = PersistentMapNode.empty
        .inserting(existingKey, existingValue, hash: existingHash, shift: shift + 5).node
        .inserting(key, value, hash: hash, shift: shift + 5).node
      newSlots[index] = .node(child)
      return (PersistentMapNode(bitmap: bitmap, slots: newSlots), true)
    case .node(let child):
      let (newChild, added) = child.inserting(key, value, hash: hash, shift: shift + 5)
      newSlots[index] = .node(newChild)
      return (PersistentMapNode(bitmap: bitmap, slots: newSlots), added)
    }
  }

  func collectKeys(into keys: inout [ObjectIdentifier]) {
    for slot in slots {
      switch slot {
      case .entry(let key, _): keys.append(key)
      case .node(let child): child.collectKeys(into: &keys)
      }
    }
  }
}
