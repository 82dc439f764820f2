import Synchronization

/// The values a storage has built, for the read fast path, read without a lock.
///
/// An insert-only, open-addressing table of atomic slots. A reader loads the published table,
/// then probes: a slot's key is stored (releasing) after its value, so a reader that sees the
/// key (acquiring) sees the value. There is one writer at a time (the caller serializes inserts
/// with the storage's lock), and a full table is replaced by a copy twice its size. A table keeps
/// the one it replaced alive, so a reader never touches freed memory; their sizes halve, so
/// together they take at most as much memory as the current one. Nothing is allocated before the
/// first insert.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct LockFreeIndex: ~Copyable {
  /// The newest table, retained, or 0 before the first insert.
  private let published = Atomic<UInt>(0)

  init() {}

  deinit {
    if let table = currentTable { table.release() }
  }

  private var currentTable: Unmanaged<SlotTable>? {
    UnsafeRawPointer(bitPattern: published.load(ordering: .acquiring)).map {
      Unmanaged<SlotTable>.fromOpaque($0)
    }
  }

  /// The box built for `id`, unretained: the storage keeps every box it built alive.
  @inline(__always)
  func box(for id: ObjectIdentifier) -> Unmanaged<AnyBox>? {
    guard let table = currentTable else { return nil }
    return table._withUnsafeGuaranteedRef { $0.find(id) }
  }

  /// Adds a box. Callers serialize inserts and keep `box` alive as long as this index.
  func insert(_ id: ObjectIdentifier, _ box: AnyBox) {
    var table = currentTable
    let count = table?._withUnsafeGuaranteedRef { $0.count } ?? 0
    let capacity = table?._withUnsafeGuaranteedRef { $0.capacity } ?? 0
    // At most three quarters full: at half, the tables of 10,000 keys took 100 bytes a key
    // (`memory.firstRead`), and linear probing stays short up to three quarters.
    if (count + 1) * 4 > capacity * 3 {
      let replaced = table?.takeUnretainedValue()
      let grown = SlotTable(capacity: max(16, capacity * 2), replacing: replaced)
      replaced?.copy(into: grown)
      let made = Unmanaged.passRetained(grown)
      published.store(UInt(bitPattern: made.toOpaque()), ordering: .releasing)
      // The new table keeps the old one alive for readers still probing it.
      table?.release()
      table = made
    }
    table!._withUnsafeGuaranteedRef { grown in
      grown.insert(id, UInt(bitPattern: Unmanaged.passUnretained(box).toOpaque()))
      #if TINY_DEPENDENCY_INTERNAL_CHECKS
        precondition(grown.count * 4 <= grown.capacity * 3, "BuiltIndex: table over 3/4 full")
        precondition(grown.find(id) != nil, "BuiltIndex: an inserted key its lookup misses")
      #endif
    }
  }
}

/// A fixed-capacity table of atomic key and value slots, side by side in one allocation; a key
/// of 0 marks an empty slot.
///
/// `@unchecked Sendable`: `count` is only touched by the index's single writer; readers only
/// touch the slots, through atomics.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class SlotTable: @unchecked Sendable {
  let capacity: Int
  private(set) var count = 0
  /// Key of slot `i` at `2 * i`, its value at `2 * i + 1`.
  private let slots: UnsafeMutablePointer<Atomic<UInt>>
  /// The table this one replaced, kept for readers that loaded it before.
  private let replaced: SlotTable?

  init(capacity: Int, replacing replaced: SlotTable?) {
    self.capacity = capacity
    self.replaced = replaced
    slots = .allocate(capacity: 2 * capacity)
    for index in 0..<(2 * capacity) {
      (slots + index).initialize(to: Atomic(0))
    }
  }

  deinit {
    slots.deinitialize(count: 2 * capacity)
    slots.deallocate()
  }

  @inline(__always)
  private func start(_ key: UInt) -> Int {
    Int(truncatingIfNeeded: PersistentMap.hash(ObjectIdentifier(bitPattern: key)))
      & (capacity - 1)
  }

  @inline(__always)
  func find(_ id: ObjectIdentifier) -> Unmanaged<AnyBox>? {
    let key = UInt(bitPattern: id)
    var index = start(key)
    while true {
      let found = slots[2 &* index].load(ordering: .acquiring)
      if found == key {
        let bits = slots[2 &* index &+ 1].load(ordering: .relaxed)
        return Unmanaged<AnyBox>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
      }
      if found == 0 { return nil }
      index = (index &+ 1) & (capacity &- 1)
    }
  }

  func insert(_ id: ObjectIdentifier, _ value: UInt) {
    let key = UInt(bitPattern: id)
    var index = start(key)
    while true {
      let found = slots[2 * index].load(ordering: .relaxed)
      if found == 0 || found == key {
        if found == 0 { count += 1 }
        slots[2 * index + 1].store(value, ordering: .relaxed)
        slots[2 * index].store(key, ordering: .releasing)
        return
      }
      index = (index + 1) & (capacity - 1)
    }
  }

  func copy(into other: SlotTable) {
    for index in 0..<capacity {
      let key = slots[2 * index].load(ordering: .relaxed)
      if key != 0 {
        other.insert(
          ObjectIdentifier(bitPattern: key),
          slots[2 * index + 1].load(ordering: .relaxed)
        )
      }
    }
  }
}

extension ObjectIdentifier {
  init(bitPattern: UInt) {
    self = unsafeBitCast(bitPattern, to: ObjectIdentifier.self)
  }
}

#if canImport(Darwin) || TINY_DEPENDENCY_APPLE || TINY_DEPENDENCY_LOCKED_INDEX
  /// The values a storage has built, for the read fast path. This base class is the locked
  /// index, for Apple systems older than macOS 15 / iOS 18 (no `Synchronization.Atomic`);
  /// ``make()`` returns the lock-free one where the system has it. On Linux,
  /// `-Xswiftc -DTINY_DEPENDENCY_APPLE` builds this class and makes the lock-free one, as newer
  /// Apple systems do, and `-Xswiftc -DTINY_DEPENDENCY_LOCKED_INDEX` makes the locked one, as
  /// older systems do (`.ci/run` runs both).
  ///
  /// `@unchecked Sendable`: the map is only touched with its lock held.
  class BuiltIndex: @unchecked Sendable {
    /// The boxes by key. A built box is never linked into a map (see ``AnyBox``), so the index
    /// keeps them in a dictionary of its own.
    private let boxes: Locked<[KeyID: AnyBox]>?

    /// A locked index.
    init() { boxes = Locked([:]) }

    /// For the lock-free subclass, which needs no lock.
    fileprivate init(lockFree: Void) { boxes = nil }

    /// The lock-free index where the system has atomics, else a locked one.
    static func make() -> BuiltIndex {
      #if !TINY_DEPENDENCY_LOCKED_INDEX
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
          return LockFreeBuiltIndex()
        }
      #endif
      return BuiltIndex()
    }

    /// The box built for `id`, unretained: the storage keeps every box it built alive.
    func box(for id: ObjectIdentifier) -> Unmanaged<AnyBox>? {
      boxes!.withLock { boxes in boxes[KeyID(id)].map { Unmanaged.passUnretained($0) } }
    }

    /// Adds a box; callers serialize inserts and keep `box` alive as long as this index.
    func insert(_ id: ObjectIdentifier, _ box: AnyBox) {
      boxes!.withLock { $0[KeyID(id)] = box }
    }
  }

  /// The lock-free index, on systems that have `Synchronization.Atomic`.
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  final class LockFreeBuiltIndex: BuiltIndex, @unchecked Sendable {
    private let index = LockFreeIndex()

    override init() { super.init(lockFree: ()) }

    override func box(for id: ObjectIdentifier) -> Unmanaged<AnyBox>? {
      index.box(for: id)
    }

    override func insert(_ id: ObjectIdentifier, _ box: AnyBox) {
      index.insert(id, box)
    }
  }
#else
  /// The values a storage has built, read without a lock: stored in the storage itself, so a
  /// scope that builds nothing allocates nothing for it.
  typealias BuiltIndex = LockFreeIndex

  extension LockFreeIndex {
    /// An empty index.
    static func make() -> LockFreeIndex { LockFreeIndex() }
  }
#endif
