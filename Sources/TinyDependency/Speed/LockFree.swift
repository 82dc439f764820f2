// The few places where a scope's entry and a read skip a lock: each has a lock-free form, with
// `Synchronization.Atomic` on Linux, and a locked twin for Apple platforms, where `Atomic` needs
// macOS 15 / iOS 18 and cannot be a stored property of a type that older systems run.
// Linux builds reproduce the two Apple configurations (`.ci/run` runs both):
// `-Xswiftc -DTINY_DEPENDENCY_APPLE` is macOS 15 / iOS 18 and later (these locked twins with the
// lock-free built index), `-Xswiftc -DTINY_DEPENDENCY_LOCKED_INDEX` the older systems (these
// twins with the locked index).

#if canImport(Darwin) || TINY_DEPENDENCY_APPLE || TINY_DEPENDENCY_LOCKED_INDEX
  /// Hands out the numbers that tell storages apart: under a lock.
  enum Serials {
    private static let last = Locked<UInt64>(0)

    /// A number no earlier call returned; never 0.
    static func next() -> UInt64 {
      last.withLock {
        $0 += 1
        return $0
      }
    }
  }

  /// State behind a lock, made with its owner (no atomic here to publish it later).
  struct LazyLocked<State: DefaultInitializable>: ~Copyable {
    private let made = Locked(State())

    init() {}

    /// The lock and state.
    var locked: Locked<State> { made }

    /// The lock and state, if anything needed them yet: always, here.
    var lockedIfMade: Locked<State>? { made }
  }

  /// A lock for a few instructions of state (a ``BuildFrame``'s, a scope instance's): a
  /// ``Locked`` beside its owner, where an atomic flag inside it needs macOS 15 / iOS 18.
  struct SpinLock: ~Copyable {
    private let locked = Locked(false)
    init() {}
    /// Runs `body` with the lock held. `body` must not call user code.
    @inline(__always)
    func withLock<R>(_ body: () -> R) -> R {
      locked.withLock { _ in body() }
    }
  }

  /// The last decision of a ``CapturedScope``: not cached on these platforms, where reading it
  /// without a lock needs atomics.
  struct DecisionCache: ~Copyable {
    init() {}

    func find(_ serial: UInt64) -> UInt? { nil }

    func store(_ serial: UInt64, _ value: UInt) {}
  }

  /// A flag set once and never cleared: a byte, written once while reads may race it (a read
  /// racing a shutdown, itself a misuse, sees it set or not).
  struct OnceFlag: ~Copyable {
    private var raw = false
    init() {}
    var isSet: Bool { raw }
    mutating func set() { raw = true }
  }

  /// A storage's frozen flag: on these systems a field of its locked state.
  struct FreezeMark: ~Copyable {
    init() {}

    func isSet<State: Freezable>(_ state: borrowing LazyLocked<State>) -> Bool {
      state.withLock { $0.isFrozen }
    }

    func set<State: Freezable>(_ state: borrowing LazyLocked<State>) {
      state.withLock { $0.isFrozen = true }
    }

    func set<State: Freezable>(in state: inout State) { state.isFrozen = true }
  }

#else
  import Synchronization

  /// Hands out the numbers that tell storages apart: an atomic counter.
  enum Serials {
    private static let last = Atomic<UInt64>(0)

    /// A number no earlier call returned; never 0.
    static func next() -> UInt64 {
      last.wrappingAdd(1, ordering: .relaxed).newValue
    }
  }

  /// State behind a lock, made on first use and published with a compare-and-exchange, so that
  /// an owner that never needs it (a scope that only reads overrides) never allocates it.
  struct LazyLocked<State: DefaultInitializable>: ~Copyable {
    /// The retained pointer of the `Locked` buffer, or 0 before first use.
    private let reference = Atomic<UInt>(0)

    init() {}

    deinit {
      if let pointer = UnsafeRawPointer(bitPattern: reference.load(ordering: .acquiring)) {
        Locked<State>.release(pointer)
      }
    }

    /// The lock and state, made now if nothing needed them before.
    var locked: Locked<State> {
      if let made = lockedIfMade { return made }
      let made = Locked(State()).retainedReference()
      let (exchanged, original) = reference.compareExchange(
        expected: 0,
        desired: UInt(bitPattern: made),
        successOrdering: .acquiringAndReleasing,
        failureOrdering: .acquiring
      )
      if exchanged { return Locked(unretained: made) }
      // Another thread made it first: use theirs.
      Locked<State>.release(made)
      return Locked(unretained: UnsafeRawPointer(bitPattern: original)!)
    }

    /// The lock and state, if anything needed them yet.
    var lockedIfMade: Locked<State>? {
      UnsafeRawPointer(bitPattern: reference.load(ordering: .acquiring)).map {
        Locked(unretained: $0)
      }
    }
  }

  /// A lock for a few instructions of state (a ``BuildFrame``'s, a scope instance's), inside its
  /// owner's allocation: an atomic flag, taken with an exchange; a thread that finds it taken
  /// yields and tries again. It is held for a few set insertions or a mark at most, never while
  /// user code or a lock-taking call runs (DESIGN.md, "Lock order"), so a first read allocates
  /// the frame alone, not a frame and a lock beside it.
  struct SpinLock: ~Copyable {
    private let taken = Atomic<Bool>(false)
    init() {}
    /// Runs `body` with the lock held. `body` must not call user code.
    @inline(__always)
    func withLock<R>(_ body: () -> R) -> R {
      while taken.exchange(true, ordering: .acquiring) {
        repeat {
          SystemInterface.yieldThread()
        } while taken.load(ordering: .relaxed)
      }
      defer { taken.store(false, ordering: .releasing) }
      return body()
    }
  }

  /// The last decision of a ``CapturedScope`` (which storage to read in the scope with a serial),
  /// read without a lock: a sequence lock over two words.
  ///
  /// A writer (one at a time: callers hold the capture's lock) makes the sequence odd, writes
  /// both words, and makes it even again; a reader keeps the pair only if the sequence was even
  /// and unchanged around its two loads. The value is only used by a reader whose serial it is:
  /// that scope is alive while it reads, so what the decision points to is too.
  struct DecisionCache: ~Copyable {
    private let sequence = Atomic<UInt>(0)
    private let serial = Atomic<UInt64>(0)
    private let value = Atomic<UInt>(0)

    init() {}

    /// The value stored for `serial`, if it is the last one stored.
    @inline(__always)
    func find(_ serial: UInt64) -> UInt? {
      let before = sequence.load(ordering: .acquiring)
      let key = self.serial.load(ordering: .relaxed)
      let found = value.load(ordering: .relaxed)
      atomicMemoryFence(ordering: .acquiring)
      let after = sequence.load(ordering: .relaxed)
      guard before & 1 == 0, before == after, key == serial else { return nil }
      return found
    }

    /// Replaces the cached pair. Callers serialize stores.
    func store(_ serial: UInt64, _ value: UInt) {
      let start = sequence.load(ordering: .relaxed)
      sequence.store(start &+ 1, ordering: .relaxed)
      atomicMemoryFence(ordering: .releasing)
      self.serial.store(serial, ordering: .relaxed)
      self.value.store(value, ordering: .relaxed)
      sequence.store(start &+ 2, ordering: .releasing)
    }
  }

  /// A flag set once and never cleared, read without a lock.
  struct OnceFlag: ~Copyable {
    private let raw = Atomic<Bool>(false)
    init() {}
    var isSet: Bool { raw.load(ordering: .relaxed) }
    mutating func set() { raw.store(true, ordering: .relaxed) }
  }

  /// A storage's frozen flag, an atomic of its own: the storage's state is made on first use.
  struct FreezeMark: ~Copyable {
    private let frozen = Atomic<Bool>(false)
    init() {}

    func isSet<State: Freezable>(_ state: borrowing LazyLocked<State>) -> Bool {
      frozen.load(ordering: .acquiring)
    }

    @inline(__always)
    func set<State: Freezable>(_ state: borrowing LazyLocked<State>) {
      // Only the first call writes, so threads binding a shared storage don't contend on it.
      if !frozen.load(ordering: .relaxed) { frozen.store(true, ordering: .releasing) }
    }

    func set<State: Freezable>(in state: inout State) {
      if !frozen.load(ordering: .relaxed) { frozen.store(true, ordering: .releasing) }
    }
  }

#endif

/// State that ``LazyLocked`` can make when it is first needed.
/// A state that can carry its storage's frozen flag (see ``FreezeMark``).
protocol Freezable: DefaultInitializable {
  var isFrozen: Bool { get set }
}

protocol DefaultInitializable {
  init()
}

extension LazyLocked {
  /// Runs `body` with the lock held, making the state first if needed.
  @inline(__always)
  func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
    try locked.withLock(body)
  }

  /// Blocks while `predicate` holds for the state, for at most `timeout` seconds.
  func wait(while predicate: (borrowing State) -> Bool, timeout: Double) -> Bool {
    locked.wait(while: predicate, timeout: timeout)
  }

  /// Wakes the threads waiting for the state to change; none can wait before it is made.
  func broadcast() {
    lockedIfMade?.broadcast()
  }
}
