/// The fast path of every read: a value set on the container or one of the scopes it derives
/// from, else a value already built here. No lock on Linux; nothing is retained on the way.
extension DependencyStorage {
  /// The box set or built for `id`, if any, unretained: it lives as long as this storage. Nil
  /// for a storage that belongs to a test, whose reads the test must see, and for a value that
  /// was shut down, whose read stops (the slow path).
  ///
  /// Not inlined into clients: an inlined test check made the getter retain two references on
  /// every read (instruction counts of the benchmark's allocation cases).
  @usableFromInline
  func lookup(_ id: ObjectIdentifier) -> Unmanaged<AnyBox>? {
    guard !observesReads else { return nil }
    return overrides.unmanagedBox(for: id)
      ?? builtIndex.box(for: id).flatMap { built in
        built._withUnsafeGuaranteedRef { $0.hasEnded } ? nil : built
      }
  }
}
