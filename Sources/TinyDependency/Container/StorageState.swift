/// What a storage's lock guards.
struct StorageState: DefaultInitializable, Freezable {
  enum Entry {
    /// Being built by that frame, here or, for a value it may share, in a scope below this one.
    case building(BuildFrame)
    case built(BuiltValue)
  }

  /// Set once the storage is shared or read from, where its ``FreezeMark`` keeps it here.
  var isFrozen = false
  var entries = EntryTable<Entry>()
  /// `overrides` with its layers moved into the trie, once a derived storage asked for it.
  var flattenedOverrides: PersistentMap?
  /// The capture shared by wrappers made here outside builds; it keeps this storage alive, so
  /// the storage holds it weakly.
  weak var strongCapture: CapturedScope?
  /// The capture shared by wrappers made here during builds; it holds this storage weakly.
  var weakCapture: CapturedScope?
  /// Captures holding a decision about this storage.
  var observers: [WeakCapture] = []
  var liveObservers = 0
  /// What preparation and shutdown keep here, if they did (`LifecycleHook.swift`).
  var lifecycle: LifecycleValues?
  /// What `prepareDependencies` applied to this root, when no test's observer keeps it.
  var preparation: PreparedRoot?

  /// Whether the value of `id` here was shut down.
  func hasRetired(_ id: ObjectIdentifier) -> Bool {
    if case .built(let built)? = entries[id] { return built.box.isRetired }
    return false
  }
}

struct WeakCapture {
  weak var value: CapturedScope?
}
