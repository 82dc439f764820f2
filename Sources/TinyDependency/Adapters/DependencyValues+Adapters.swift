/// What the products above the core ask of a container: the seam's observer, the graph's built
/// values, the lifecycle's build frame.
extension DependencyValues {
  /// The build this container's reads belong to, if it was bound for one.
  package var frame: BuildFrame? {
    get { binding?.frame }
    set { binding = newValue.map(BuildBinding.init) }
  }

  /// A root container with `observer` attached (the seam, ``DependencyObserver``), as every
  /// scope made from it has: a test's record, a graph's trace.
  package init(context: DependencyContext?, observer: any DependencyObserver) {
    self.init(storage: DependencyStorage(context: context, observer: observer))
  }

  /// What a layer attached to this container, inherited from the one it derives from; setting
  /// it derives a container of its own first, as setting a value does.
  package var observer: (any DependencyObserver)? {
    get { storage.observer }
    set {
      guard newValue !== storage.observer else { return }
      prepareToMutate()
      storage.setObserver(newValue)
    }
  }

  /// Whether a test value that falls back to the live default is reported as a test issue
  /// here: the testing product's strict mode, attached as an observer.
  package var reportsLiveFallbacks: Bool { storage.observer?.reportsLiveFallbacks ?? false }

  /// Every value this container holds, with the keys each build read, and those of the scopes
  /// around it that they read, transitively: what its graph shows.
  package var builtKeysWithTheirReads: [(key: KeyType, reads: [KeyType])] {
    storage.builtValuesWithTheirReads.map { ($0.key, $0.reads) }
  }

  /// The value set or built for `id` here, when no build records this read: the subscript's
  /// fast path, for a key read under another identity (a `TestDependencyKey`'s stand-in).
  @inline(__always)
  func valueOnFastPath<Value: Sendable>(of id: ObjectIdentifier, as _: Value.Type) -> Value? {
    guard binding == nil, let box = storage.lookup(id) else { return nil }
    return box._withUnsafeGuaranteedRef { $0.unbox(as: Value.self) }
  }
}

extension DependencyKey {
  /// Notes, for the build in progress, that this key's test value is a placeholder and not a
  /// test value of its own, as the protocol's fallback does: the validator and strict mode then
  /// count it as a key without a test value. For TinyDependencyBuiltins' loud test values.
  package static func noteTestValueIsPlaceholder() { noteFallback(in: .test) }
}

extension MainActorDependencyKey {
  /// The key this one's values are stored under, for the validator of TinyDependencyTesting.
  package static var storageKey: any DependencyKey.Type { MainActorKey<Self>.self }
}

extension DependencyValues {
  /// Whether this container and `other` are the same, not copies that diverged.
  package func isSameContainer(as other: DependencyValues) -> Bool {
    storage === other.storage
  }
}
