/// Values shared between a scope and the scopes around it (DESIGN.md, decision 5).
///
/// A value built in a scope is kept by the highest scope around it that would have built the
/// same: none of the keys it read, nor the key itself, were overridden or placed in between
/// (a value placed in a scope is that scope's, so a value read from it goes no higher), the
/// context is the same, and the value keeps no scope of its own. A scope that finds nothing
/// asks the scopes around it first: it shares a value built there, or waits for a build in
/// progress there, so concurrent request scopes that only set a request ID build one database
/// client.
extension DependencyStorage {
  /// What the scopes around this one offer for a key this one has no entry for.
  enum Above {
    /// A value built above that this scope would build the same.
    case share(BuiltValue)
    /// A build of the key in progress in `owner`, by another thread.
    case wait(BuildFrame, owner: DependencyStorage)
    /// Nothing: build here. `highest` is the highest scope that could share the result, where
    /// the build is announced so that sibling scopes wait for it.
    case build(highest: DependencyStorage?)
  }

  /// What the scopes around offer for `id`, given the keys this scope `placed`. A build in
  /// progress there whose value this scope could not use (it already read a key changed in
  /// between) is not waited for.
  func lookAbove(
    for id: ObjectIdentifier,
    placed: Set<ObjectIdentifier>?,
    upTo limit: DependencyStorage? = nil
  ) -> Above {
    guard !choosesContext, self !== limit else { return .build(highest: nil) }
    var changed = changedKeys
    changed.add(placed)
    var highest: DependencyStorage?
    // Whether every scope passed so far had no entry, so the build can be announced higher up.
    var announcing = true
    var node = parent
    while let ancestor = node, !changed.contains(id) {
      var placedThere: Set<ObjectIdentifier>?
      let entry = ancestor.state.withLock { state in
        placedThere = state.placed?.keys
        return state.entries[id]
      }
      switch entry {
      case .built(let built)? where built.box.hasEnded:
        // Its value there was shut down: this scope builds one anew, which neither that scope
        // nor any above it may keep (DependencyValues.shutdown()).
        return .build(highest: highest)
      case .built(let built)?
      where changed.isDisjoint(with: built.inputs)
        && (built.hold != .escapedScope || changed.isEmpty):
        return .share(built)
      case .building(let builder)?:
        // This thread's own build of the key, read again in a scope below it: not a wait (it
        // would wait for itself); the build here stops as the cycle it is (`build`).
        guard BuildFrame.threadStack(downTo: builder) == nil else { return .build(highest: nil) }
        guard !builder.hasRead(anyOf: changed) else {
          announcing = false
          break
        }
        return .wait(builder, owner: ancestor)
      case .built?:
        // A value this scope can't use, built from a key changed in between: an announcement
        // can't go in its place, and one built here is most likely kept below it.
        announcing = false
      case nil:
        if announcing { highest = ancestor }
      }
      if ancestor.choosesContext || ancestor === limit { break }
      changed.formUnion(ancestor.changedKeys)
      changed.add(placedThere)
      node = ancestor.parent
    }
    return .build(highest: highest)
  }

  /// Offers a value built here to the highest scope around that would have built the same, given
  /// the keys this scope `placed`, and withdraws the announcement made in `marked`.
  func share(
    _ built: BuiltValue,
    as id: ObjectIdentifier,
    builtBy frame: BuildFrame,
    marked: DependencyStorage?,
    placed: Set<ObjectIdentifier>?,
    upTo limit: DependencyStorage?
  ) {
    var target: DependencyStorage?
    if !choosesContext && built.hold == .none && self !== limit {
      var changed = changedKeys
      changed.add(placed)
      var node = parent
      while let ancestor = node, !changed.contains(id), changed.isDisjoint(with: built.inputs) {
        let (retired, placedThere) = ancestor.state.withLock {
          ($0.hasEnded(id), $0.placed?.keys)
        }
        if retired { break }
        target = ancestor
        if ancestor.choosesContext || ancestor === limit { break }
        changed.formUnion(ancestor.changedKeys)
        changed.add(placedThere)
        node = ancestor.parent
      }
    }
    if let target {
      target.state.withLock { state in
        switch state.entries[id] {
        case nil: target.adopt(built, as: id, in: &state)
        case .building(let builder)? where builder === frame:
          target.adopt(built, as: id, in: &state)
        default: break
        }
      }
      target.state.broadcast()
    }
    if let marked, marked !== target { marked.withdrawClaim(of: id, by: frame) }
  }

  // MARK: - Merging a parent

  /// Whether values were placed or ended here, or an attachment pinned it: such a storage is
  /// never merged away.
  var holdsPlacedValues: Bool {
    state.lockedIfMade?.withLock { $0.placed != nil || $0.isPinned } ?? false
  }

  /// The values built here that a storage below, which changed `changed` since, would share
  /// from here (as `lookAbove` decides): what it keeps when it merges this storage into itself.
  func valuesToShare(below changed: KeySet) -> [BuiltValue] {
    guard let entries = state.lockedIfMade?.withLock({ $0.entries.values }) else { return [] }
    var usable: [BuiltValue] = []
    for entry in entries {
      guard case .built(let built) = entry else { continue }
      if !changed.contains(built.key.id) && changed.isDisjoint(with: built.inputs)
        && (built.hold != .escapedScope || changed.isEmpty)
      {
        usable.append(built)
      }
    }
    return usable
  }

  /// Keeps `values`, taken from the parents this storage merged into itself (nearest first),
  /// before anything reads it. No other thread sees this storage yet; keeping a value freezes
  /// it, so that the next change derives a new storage rather than outdating the value.
  func keepInherited(_ values: [BuiltValue]) {
    state.withLock { state in
      for built in values where state.entries[built.key.id] == nil {
        adopt(built, as: built.key.id, in: &state)
      }
    }
  }

  // MARK: - Combining scopes

  /// The nearest storage that both `left` and `right` are or derive from, if any.
  static func nearestCommonAncestor(
    _ left: DependencyStorage,
    _ right: DependencyStorage
  ) -> DependencyStorage? {
    var left: DependencyStorage? = left
    var right: DependencyStorage? = right
    var leftDepth = left?.depth ?? 0
    var rightDepth = right?.depth ?? 0
    while let l = left, let r = right, l !== r {
      if leftDepth >= rightDepth {
        left = l.parent
        leftDepth -= 1
      } else {
        right = r.parent
        rightDepth -= 1
      }
    }
    return left === right ? left : nil
  }

  /// A storage derived from this one with what `current` changed since their nearest common
  /// ancestor on top: those overrides, and its context if it chose one.
  func combined(with current: DependencyStorage) -> DependencyStorage {
    var ancestors: Set<ObjectIdentifier> = []
    var node: DependencyStorage? = self
    while let scope = node {
      ancestors.insert(ObjectIdentifier(scope))
      node = scope.parent
    }
    var changed = KeySet()
    var choseContext = false
    node = current
    while let scope = node, !ancestors.contains(ObjectIdentifier(scope)) {
      changed.formUnion(scope.changedKeys)
      choseContext = choseContext || scope.choosesContext
      node = scope.parent
    }
    let storage = DependencyStorage(deriving: self)
    for key in changed {
      if let box = current.overrides[key] { storage.setOverride(box, for: key) }
    }
    if choseContext && current.context != context {
      storage.choose(current.context)
    }
    storage.freeze()
    return storage
  }
}
