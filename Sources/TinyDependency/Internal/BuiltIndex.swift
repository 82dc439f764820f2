#if canImport(Darwin) || TINY_DEPENDENCY_LOCKED_INDEX
  /// The values a storage has built, for the read fast path: lock-protected on Apple platforms,
  /// where `Synchronization.Atomic` needs macOS 15 / iOS 18. Build with
  /// `-Xswiftc -DTINY_DEPENDENCY_LOCKED_INDEX` to run this variant on Linux (`.ci/run` does).
  struct BuiltIndex: Sendable {
    private let map = Locked(PersistentMap())

    init() {}

    /// The box built for `id`, unretained: the storage keeps every box it built alive.
    func box(for id: ObjectIdentifier) -> Unmanaged<AnyBox>? {
      map.withLock { map in
        guard let box = map.unmanagedBox(for: id),
          box.toOpaque() != Unmanaged.passUnretained(Self.removed).toOpaque()
        else { return nil }
        return box
      }
    }

    /// Stands for a removed box, since the map has no removal.
    private static let removed = AnyBox()

    /// Removes a box; the caller keeps it alive for readers that already found it.
    func remove(_ id: ObjectIdentifier) {
      map.withLock { $0.set(id, Self.removed) }
    }

    /// Adds a box; the caller must keep `box` alive as long as this index.
    func insert(_ id: ObjectIdentifier, _ box: AnyBox) {
      map.withLock { $0.set(id, box) }
    }
  }
#else
  import Synchronization

  /// The values a storage has built, for the read fast path: read without a lock.
  ///
  /// An insert-only, open-addressing table of atomic slots. A reader loads the published table,
  /// then probes: a slot's key is stored (releasing) after its value, so a reader that sees the
  /// key (acquiring) sees the value. There is one writer at a time (the storage's mutex), and a
  /// full table is replaced by a copy twice its size. Replaced tables stay allocated until the
  /// index goes away, so a reader never touches freed memory; their sizes halve, so together they
  /// take at most as much memory as the current one.
  ///
  /// `@unchecked Sendable`: `tables` and `count` are only touched by the single writer; readers
  /// only read `published` and the immutable-once-published slots through atomics.
  final class BuiltIndex: @unchecked Sendable {
    private let published = Atomic<UInt>(0)
    private var tables: [SlotTable] = []
    private var count = 0

    init() {}

    /// The box built for `id`, unretained: the storage keeps every box it built alive.
    func box(for id: ObjectIdentifier) -> Unmanaged<AnyBox>? {
      let bits = published.load(ordering: .acquiring)
      guard let pointer = UnsafeRawPointer(bitPattern: bits) else { return nil }
      return Unmanaged<SlotTable>.fromOpaque(pointer)._withUnsafeGuaranteedRef { $0.find(id) }
    }

    /// Adds a box. Callers serialize inserts and keep `box` alive as long as this index.
    func insert(_ id: ObjectIdentifier, _ box: AnyBox) {
      if tables.isEmpty || (count + 1) * 2 > tables[tables.count - 1].capacity {
        let grown = SlotTable(capacity: tables.isEmpty ? 16 : tables[tables.count - 1].capacity * 2)
        if let last = tables.last { last.copy(into: grown) }
        tables.append(grown)
        published.store(
          UInt(bitPattern: Unmanaged.passUnretained(grown).toOpaque()),
          ordering: .releasing
        )
      }
      tables[tables.count - 1].insert(
        id,
        UInt(bitPattern: Unmanaged.passUnretained(box).toOpaque())
      )
      count += 1
      #if TINY_DEPENDENCY_INTERNAL_CHECKS
        let table = tables[tables.count - 1]
        precondition(count * 2 <= table.capacity, "BuiltIndex: table over half full")
        precondition(table.find(id) != nil, "BuiltIndex: an inserted key its lookup misses")
      #endif
    }

    /// Removes a box: its slot's key becomes a tombstone that probes pass over. The caller keeps
    /// the box alive for readers that already found it.
    func remove(_ id: ObjectIdentifier) {
      tables.last?.remove(id)
    }
  }

  /// A fixed-capacity table of atomic key and value slots; a key of 0 marks an empty slot.
  final class SlotTable: @unchecked Sendable {
    let capacity: Int
    private let keys: UnsafeMutablePointer<Atomic<UInt>>
    private let values: UnsafeMutablePointer<Atomic<UInt>>

    init(capacity: Int) {
      self.capacity = capacity
      keys = .allocate(capacity: capacity)
      values = .allocate(capacity: capacity)
      for index in 0..<capacity {
        (keys + index).initialize(to: Atomic(0))
        (values + index).initialize(to: Atomic(0))
      }
    }

    deinit {
      keys.deinitialize(count: capacity)
      keys.deallocate()
      values.deinitialize(count: capacity)
      values.deallocate()
    }

    @inline(__always)
    private func start(_ key: UInt) -> Int {
      Int(truncatingIfNeeded: PersistentMap.hash(ObjectIdentifier(bitPattern: key)) >> 32)
        & (capacity - 1)
    }

    func find(_ id: ObjectIdentifier) -> Unmanaged<AnyBox>? {
      let key = UInt(bitPattern: id)
      var index = start(key)
      while true {
        let found = keys[index].load(ordering: .acquiring)
        if found == key {
          let bits = values[index].load(ordering: .relaxed)
          return Unmanaged<AnyBox>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
        }
        if found == 0 { return nil }
        index = (index + 1) & (capacity - 1)
      }
    }

    func insert(_ id: ObjectIdentifier, _ value: UInt) {
      let key = UInt(bitPattern: id)
      var index = start(key)
      while true {
        let found = keys[index].load(ordering: .relaxed)
        if found == 0 || found == key {
          values[index].store(value, ordering: .relaxed)
          keys[index].store(key, ordering: .releasing)
          return
        }
        index = (index + 1) & (capacity - 1)
      }
    }

    /// A key no object has (objects are aligned): marks a removed slot.
    static let tombstone: UInt = 1

    func remove(_ id: ObjectIdentifier) {
      let key = UInt(bitPattern: id)
      var index = start(key)
      while true {
        let found = keys[index].load(ordering: .relaxed)
        if found == key {
          keys[index].store(Self.tombstone, ordering: .releasing)
          return
        }
        if found == 0 { return }
        index = (index + 1) & (capacity - 1)
      }
    }

    func copy(into other: SlotTable) {
      for index in 0..<capacity {
        let key = keys[index].load(ordering: .relaxed)
        if key != 0 && key != Self.tombstone {
          other.insert(ObjectIdentifier(bitPattern: key), values[index].load(ordering: .relaxed))
        }
      }
    }
  }

  extension ObjectIdentifier {
    init(bitPattern: UInt) {
      self = unsafeBitCast(bitPattern, to: ObjectIdentifier.self)
    }
  }
#endif
