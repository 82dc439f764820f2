/// An immutable hash map from key types to boxed values, with structural sharing.
///
/// Two parts. The newest entries are boxes linked into a short list (each box is its own layer,
/// see ``AnyBox``), so setting a key (what entering a scope does) allocates nothing but the box
/// whatever the map holds. When the list reaches ``maximumLayers``, its entries move into a hash
/// array mapped trie: each trie node holds up to 32 slots selected by 5 bits of the key's hash,
/// and an insertion copies only the nodes on its path. A lookup scans at most ``maximumLayers``
/// layers, then one trie node per 32× more entries. The hash (``hash(_:)``) is a bijection on
/// 64-bit values, so two keys never share a full hash and no collision buckets are needed.
@usableFromInline
struct PersistentMap: Sendable {
  @usableFromInline
  var root: PersistentMapNode?
  /// The newest layer: a box linked to the ones set before it.
  @usableFromInline
  var top: AnyBox?
  /// The number of layers above the trie.
  private(set) var layerCount = 0

  /// How many layers may stack up before they move into the trie.
  static let maximumLayers = 8

  @inlinable
  init() {}

  /// The hash of a key identity, shared by the map, the built index and the entry table.
  ///
  /// Identities are aligned metadata addresses, so their low bits are zero. Multiplying by an
  /// odd constant keeps those zeros, so the product's high half, which every bit of the address
  /// reaches, is folded into its low half. Both steps are bijections on 64-bit values.
  @inlinable
  static func hash(_ key: ObjectIdentifier, seed: Int = 0) -> UInt64 {
    let product =
      (UInt64(UInt(bitPattern: key)) ^ UInt64(UInt(bitPattern: seed))) &* 0x9E37_79B9_7F4A_7C15
    return product ^ (product >> 32)
  }

  /// The value for `key`, if set.
  @inlinable
  subscript(key: ObjectIdentifier) -> AnyBox? {
    unmanagedBox(for: key)?.takeUnretainedValue()
  }

  /// The value for `key`, if set, without retaining anything on the way: the map keeps every
  /// layer, node and box alive while the caller holds the map.
  @inlinable
  func unmanagedBox(for key: ObjectIdentifier) -> Unmanaged<AnyBox>? {
    if let top {
      var layer = Unmanaged.passUnretained(top)
      let bits = UInt(bitPattern: key)
      while true {
        let (found, next): (Bool, Unmanaged<AnyBox>?) = layer._withUnsafeGuaranteedRef {
          ($0.layerKey == bits, $0.layerNext.map { Unmanaged.passUnretained($0) })
        }
        if found { return layer }
        guard let next else { break }
        layer = next
      }
    }
    guard let root else { return nil }
    var node = Unmanaged.passUnretained(root)
    var hash = Self.hash(key)
    while true {
      let step: PersistentMapNode.Step = node._withUnsafeGuaranteedRef {
        $0.step(toward: key, hash: hash)
      }
      switch step {
      case .found(let box): return box
      case .missing: return nil
      case .descend(let child):
        node = child
        hash >>= 5
      }
    }
  }

  /// Sets `value` for `key` without changing any map that shares storage with this one. The map
  /// links a copy of `value`, which may be shared: a box is linked into one map only.
  mutating func set(_ key: ObjectIdentifier, _ value: AnyBox) {
    set(key, linking: value.copied())
  }

  /// Sets `box`, made for this call and seen by nothing else yet, for `key`: the box becomes the
  /// map's new layer.
  mutating func set(_ key: ObjectIdentifier, linking box: AnyBox) {
    precondition(box.layerKey == 0, "PersistentMap: a box linked into a second map")
    if layerCount >= Self.maximumLayers {
      self = flattened()
    }
    box.layerKey = UInt(bitPattern: key)
    box.layerNext = top
    top = box
    layerCount += 1
    checkInvariants()
  }

  /// With `-DTINY_DEPENDENCY_INTERNAL_CHECKS`, stops when the map is malformed: too many
  /// layers, a node whose bitmap and slots disagree, or a key its own lookup doesn't find.
  func checkInvariants() {
    #if TINY_DEPENDENCY_INTERNAL_CHECKS
      precondition(layerCount <= Self.maximumLayers, "PersistentMap: \(layerCount) layers")
      var linked = 0
      var layer = top
      while let current = layer {
        precondition(current.layerKey != 0, "PersistentMap: a layer with no key")
        linked += 1
        layer = current.layerNext
      }
      precondition(linked == layerCount, "PersistentMap: \(linked) layers, \(layerCount) counted")
      root?.checkInvariants()
      for key in keys {
        precondition(self[key] != nil, "PersistentMap: a key its lookup does not find")
      }
    #endif
  }

  /// How many layers a storage passes on as they are to the storages derived from it.
  static let sharedLayers = 2

  /// The same map with every layer moved into the trie.
  func flattened() -> PersistentMap {
    var layers: [AnyBox] = []
    var layer = top
    while let current = layer {
      layers.append(current)
      layer = current.layerNext
    }
    var node = root ?? PersistentMapNode.empty
    for layer in layers.reversed() {
      let key = ObjectIdentifier(bitPattern: layer.layerKey)
      node = node.inserting(key, layer, hash: Self.hash(key), shift: 0).node
    }
    var result = PersistentMap()
    result.root = node
    result.checkInvariants()
    return result
  }

  /// The keys in the map, in no particular order.
  var keys: [ObjectIdentifier] {
    var result: Set<ObjectIdentifier> = []
    var layer = top
    while let current = layer {
      result.insert(ObjectIdentifier(bitPattern: current.layerKey))
      layer = current.layerNext
    }
    var trieKeys: [ObjectIdentifier] = []
    root?.collectKeys(into: &trieKeys)
    result.formUnion(trieKeys)
    return Array(result)
  }

  /// The number of keys in the map.
  var count: Int { keys.count }
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

  /// Where a lookup goes from this node.
  @usableFromInline
  enum Step {
    case found(Unmanaged<AnyBox>)
    case missing
    case descend(Unmanaged<PersistentMapNode>)
  }

  /// One step of a lookup for `key`, whose hash has been shifted to this node's level.
  @usableFromInline
  func step(toward key: ObjectIdentifier, hash: UInt64) -> Step {
    let bit = UInt32(1) << UInt32(truncatingIfNeeded: hash & 31)
    guard bitmap & bit != 0 else { return .missing }
    let index = (bitmap & (bit &- 1)).nonzeroBitCount
    return slots.withUnsafeBufferPointer { buffer in
      switch buffer[index] {
      case .entry(let entryKey, let value):
        entryKey == key ? .found(Unmanaged.passUnretained(value)) : .missing
      case .node(let child):
        .descend(Unmanaged.passUnretained(child))
      }
    }
  }

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

  /// Stops when the bitmap and the slots disagree, here or below.
  func checkInvariants() {
    precondition(bitmap.nonzeroBitCount == slots.count, "PersistentMapNode: bitmap and slots")
    for case .node(let child) in slots {
      precondition(!child.slots.isEmpty, "PersistentMapNode: an empty child")
      child.checkInvariants()
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
