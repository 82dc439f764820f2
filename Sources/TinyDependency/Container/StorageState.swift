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
  /// The capture shared by wrappers made here outside builds; they keep it and it keeps this
  /// storage, so the storage holds it weakly.
  weak var strongCapture: CapturedScope?
  /// The capture shared by wrappers made here during builds; it holds this storage weakly.
  var weakCapture: CapturedScope?
  /// Captures holding a decision about this storage.
  var captureWatchers: [WeakCapture] = []
  var liveCaptureWatchers = 0
  /// Values placed here rather than built on a read, and values whose lifetime ended here.
  var placed: PlacedValues?
  /// The layers' objects kept beside this storage, one per type (the seam's attachment slot).
  var attachments: [ObjectIdentifier: any AnyObject & Sendable] = [:]
  /// Set when an attachment asked that this storage never be merged into one derived from it.
  var isPinned = false

  /// Whether the value of `id` here ended (its scope instance ended, or it was shut down).
  func hasEnded(_ id: ObjectIdentifier) -> Bool {
    if case .built(let built)? = entries[id] { return built.box.hasEnded }
    return false
  }

  /// `placed`, made now if it was not.
  mutating func placedValues() -> PlacedValues {
    if let placed { return placed }
    let made = PlacedValues()
    placed = made
    return made
  }
}

/// What a storage keeps of values it did not build on a read, made when first needed: most
/// storages (request scopes) never hold one, and carry one nil word for it.
final class PlacedValues {
  /// The keys whose values were placed here (`place(_:)`): changed here, for the sharing rules,
  /// as an override is.
  var keys: Set<ObjectIdentifier> = []
  /// Ended values that a placed one replaced, kept for reads still in flight.
  var replaced: [AnyBox] = []
}

struct WeakCapture {
  weak var value: CapturedScope?
}
