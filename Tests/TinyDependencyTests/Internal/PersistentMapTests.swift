import TestSubprocess
import Testing

@testable import TinyDependency

@Suite("The persistent map behind overrides, the index of built values, and the entry table")
struct PersistentMapTests {
  /// Distinct object identities to use as keys.
  final class Token {}

  @Test func agreesWithADictionaryAndLeavesCopiesAlone() {
    let tokens = (0..<2_000).map { _ in Token() }
    var generator = SystemRandomNumberGenerator()
    var map = PersistentMap()
    var reference: [ObjectIdentifier: Int] = [:]
    var snapshots: [(PersistentMap, [ObjectIdentifier: Int])] = []
    for step in 0..<5_000 {
      let key = ObjectIdentifier(tokens[Int.random(in: 0..<tokens.count, using: &generator)])
      map.set(key, Box(step))
      reference[key] = step
      if step % 500 == 0 { snapshots.append((map, reference)) }
    }
    #expect(map.count == reference.count)
    #expect(Set(map.keys) == Set(reference.keys))
    for (key, value) in reference {
      #expect(map[key]?.unbox(as: Int.self) == value)
    }
    for token in tokens.prefix(50) where reference[ObjectIdentifier(token)] == nil {
      #expect(map[ObjectIdentifier(token)] == nil)
    }
    for (snapshot, expected) in snapshots {
      #expect(snapshot.count == expected.count)
      #expect(expected.allSatisfy { snapshot[$0.key]?.unbox(as: Int.self) == $0.value })
    }
  }

  @Test func builtIndexFindsEveryInsertedBoxWhileGrowing() {
    let tokens = (0..<3_000).map { _ in Token() }
    let boxes = tokens.indices.map { Box($0) }
    let index = BuiltIndex.make()
    for (position, token) in tokens.enumerated() {
      index.insert(ObjectIdentifier(token), boxes[position])
      #expect(index.box(for: ObjectIdentifier(token))?.takeUnretainedValue() === boxes[position])
    }
    let missing = tokens.indices.filter { position in
      index.box(for: ObjectIdentifier(tokens[position]))?.takeUnretainedValue() !== boxes[position]
    }
    #expect(missing.isEmpty)
    // The tokens stay alive: a freed token's address, reused by a new object, is in the index.
    let absent = Token()
    withExtendedLifetime((tokens, boxes, absent)) {
      #expect(index.box(for: ObjectIdentifier(absent)) == nil)
    }
  }

  @Test func readersSeeConsistentBoxesWhileAWriterGrowsTheIndex() async {
    let tokens = (0..<4_000).map { _ in Token() }
    let boxes = tokens.indices.map { Box($0) }
    let index = BuiltIndex.make()
    let ids = tokens.map(ObjectIdentifier.init)
    let results = await onThreads(3) { thread in
      if thread == 0 {
        for position in ids.indices { index.insert(ids[position], boxes[position]) }
        return 0
      }
      var wrong = 0
      for _ in 0..<20 {
        for position in ids.indices {
          if let box = index.box(for: ids[position]),
            box.takeUnretainedValue().unbox(as: Int.self) != position
          {
            wrong += 1
          }
        }
      }
      return wrong
    }
    #expect(results == [0, 0, 0])
  }

  @Test func entryTableHashesAlignedIdentitiesIntoDistinctBuckets() {
    // Key identities are metadata addresses: aligned, so their low bits are all zero. The
    // dictionary picks buckets from the low bits of the hash.
    let ids = (1...4_096).map { KeyID(ObjectIdentifier(bitPattern: UInt($0) << 8)) }
    let buckets = Set(ids.map { $0._rawHashValue(seed: 0) & 4_095 })
    #expect(buckets.count > 2_400)
    #expect(ids[0]._rawHashValue(seed: 0) != ids[0]._rawHashValue(seed: 1))
  }

  @Test func trieRootSpreadsAlignedKeysOverItsSlots() {
    // Key identities are aligned addresses: their low bits are zero, and a hash that keeps them
    // zero crowds the whole trie into a few of the root's 32 slots.
    let tokens = (0..<256).map { _ in Token() }
    var map = PersistentMap()
    for (position, token) in tokens.enumerated() { map.set(ObjectIdentifier(token), Box(position)) }
    let occupied = map.root.map { $0.bitmap.nonzeroBitCount } ?? 0
    // A uniform hash fills all 32 in most runs; where the allocator puts the tokens varies, and
    // a loaded run once filled 26. The hash that kept the low bits zero filled at most 4.
    #expect(occupied >= 16, "the root uses \(occupied) of its 32 slots for 256 keys")
    let keySlots = Set(numberedKeys(64).map { PersistentMap.hash(ObjectIdentifier($0)) & 31 })
    #expect(keySlots.count >= 20, "64 key types fall into \(keySlots.count) root slots")
  }

  @Test func entryTableKeepsEveryEntryLikeADictionary() {
    let tokens = (0..<2_000).map { _ in Token() }
    var table = EntryTable<Int>()
    var reference: [ObjectIdentifier: Int] = [:]
    for step in 0..<6_000 {
      let key = ObjectIdentifier(tokens[(step &* 7_919) % tokens.count])
      let value: Int? = step % 5 == 0 ? nil : step
      table[key] = value
      reference[key] = value
    }
    #expect(tokens.allSatisfy { table[ObjectIdentifier($0)] == reference[ObjectIdentifier($0)] })
    #expect(table.values.sorted() == reference.values.sorted())
  }

  @Test func aBoxSetAsAnOverrideIsTheMapsLayerAndSharedBoxesAreCopied() {
    let tokens = (Token(), Token())
    let first = ObjectIdentifier(tokens.0)
    let second = ObjectIdentifier(tokens.1)
    var map = PersistentMap()
    let fresh = Box(1)
    map.set(first, linking: fresh)
    map.set(second, Box(2))
    #expect(map[first] === fresh)
    #expect(map.layerCount == 2)

    // A box that one map links is copied into another, which leaves the first map intact.
    var other = PersistentMap()
    other.set(second, Box(20))
    other.set(first, map[first]!)
    #expect(other[first] !== fresh)
    #expect(other[first]?.unbox(as: Int.self) == 1)
    #expect(other[second]?.unbox(as: Int.self) == 20)
    #expect(map[first] === fresh)
    #expect(map[second]?.unbox(as: Int.self) == 2)
    #expect(Set(map.keys) == [first, second])
    withExtendedLifetime(tokens) {}
  }

  @Test func layersMoveIntoTheTrieAndKeepTheirValues() {
    let tokens = (0..<40).map { _ in Token() }
    var map = PersistentMap()
    var snapshots: [PersistentMap] = []
    for (step, token) in tokens.enumerated() {
      map.set(ObjectIdentifier(token), linking: Box(step))
      #expect(map.layerCount <= PersistentMap.maximumLayers)
      snapshots.append(map)
    }
    for (step, snapshot) in snapshots.enumerated() {
      #expect(snapshot.count == step + 1)
      #expect(snapshot[ObjectIdentifier(tokens[step])]?.unbox(as: Int.self) == step)
    }
    let flattened = map.flattened()
    #expect(flattened.layerCount == 0)
    #expect(
      tokens.indices.allSatisfy {
        flattened[ObjectIdentifier(tokens[$0])]?.unbox(as: Int.self) == $0
      }
    )
  }

  #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test(.oneExitTestAtATime)
    func linkingABoxIntoASecondMapStops() async {
      await #expect(processExitsWith: .failure) {
        let box = Box(1)
        var first = PersistentMap()
        first.set(ObjectIdentifier(Token()), linking: box)
        var second = PersistentMap()
        second.set(ObjectIdentifier(Token()), linking: box)
      }
    }
  #endif
}

/// A value that counts the instances alive.
final class OverwrittenProbe: Sendable {
  static let alive = Locked(0)
  init() { Self.alive.withLock { $0 += 1 } }
  deinit { Self.alive.withLock { $0 -= 1 } }
}

enum OverwrittenProbeKey: DependencyKey {
  static var defaultValue: OverwrittenProbe? { nil }
}

/// Overwritten overrides stay linked below the box that replaced them until the map next folds
/// its layers into the trie: at most `maximumLayers` values a key, however often it is set.
@Suite("A container set over and over keeps a bounded number of overwritten values")
struct OverwrittenOverrideTests {
  @Test func overwrittenValuesAreFreedWithinTheLayerBound() {
    let before = OverwrittenProbe.alive.withLock { $0 }
    var values = DependencyValues(context: .test)
    for round in 0..<1_000 {
      values[OverwrittenProbeKey.self] = OverwrittenProbe()
      // A derived scope asks for the flattened overrides now and then.
      if round % 3 == 0 { withDependencies(values) {} }
    }
    let kept = OverwrittenProbe.alive.withLock { $0 } - before
    #expect(kept >= 1)
    #expect(kept <= 2 * PersistentMap.maximumLayers)
    _ = values
  }
}
