/// What `prepareDependencies` set on the process root, where, and what a later call may change.
///
/// The process root stays a constant (the unbound read path reads it without a retain), and its
/// overrides stay what they were when it was made: prepared values go in as values the root has
/// built, through the same lock and lock-free index as any build. A read outside any scope
/// finds them on the fast path; a scope derived from the root shares them as it shares any value
/// the root built (they read nothing, so only a scope that overrides the key itself builds its
/// own).
///
/// A key the root already has an entry for (built, being built, or prepared by an earlier
/// call), or that a value the root built read, keeps what it has: what was handed out never
/// changes. The call reports it. In the preview context a later call replaces the values of the
/// keys it sets, since a preview runs its setup again; values built from the old ones keep them.
package final class EntryPointRecord: Sendable {
  /// One value a call set.
  struct Change {
    let key: KeyType
    let box: AnyBox
    let isTransient: Bool
  }

  /// What a call did, by key, in the order the keys were set.
  struct Outcome {
    var applied: [KeyType] = []
    /// Kept their earlier value: built, being built, read by a built value, or prepared before.
    var kept: [KeyType] = []
    /// Replaced a value in the preview context.
    var replaced: [KeyType] = []
    /// Transient keys, which are built on every read and so cannot be prepared.
    var transient: [KeyType] = []
    /// The first call, when this one is not it.
    var firstCall: SourceSite?
  }

  private struct State {
    var firstCall: SourceSite?
    /// The values applied, for a test that asks to see them.
    var prepared: [ObjectIdentifier: (key: KeyType, box: AnyBox)] = [:]
    var order: [ObjectIdentifier] = []
    /// Boxes replaced in the preview context: a read may still hold one unretained.
    var retired: [AnyBox] = []
  }

  private let state = Locked(State())

  /// Creates an empty record, for the process root or a test's root.
  package init() {}

  /// The process root's.
  static let process = EntryPointRecord()

  /// Applies `changes` to `root`, as the call at `site` asks. The record's lock and the root's
  /// are taken one after the other, never one inside the other: first the call is counted, then
  /// the root takes what it may, then the record notes what it took.
  func apply(_ changes: [Change], to root: DependencyStorage, at site: SourceSite) -> Outcome {
    let replaces = root.context == .preview
    var outcome = Outcome()
    outcome.firstCall = state.withLock { prepared in
      defer { if prepared.firstCall == nil { prepared.firstCall = site } }
      return prepared.firstCall
    }
    var taken: [(change: Change, replaced: AnyBox?)] = []
    root.state.withLock { state in
      for change in changes {
        let id = change.key.id
        if change.isTransient {
          outcome.transient.append(change.key)
          continue
        }
        let old: BuiltValue?
        switch state.entries[id] {
        case .building?:
          outcome.kept.append(change.key)
          continue
        case .built(let built)?:
          old = built
        case nil:
          old = nil
        }
        let readByBuiltValue = state.entries.values.contains { entry in
          if case .built(let built) = entry { return built.inputs.contains(id) }
          return false
        }
        if (old != nil || readByBuiltValue) && !replaces {
          outcome.kept.append(change.key)
          continue
        }
        if old != nil {
          outcome.replaced.append(change.key)
        } else {
          outcome.applied.append(change.key)
        }
        let value = BuiltValue(box: change.box, inputs: [], key: change.key, reads: [], hold: .none)
        root.adopt(value, as: id, in: &state)
        state.attachment(HandedInValues.init).boxes.insert(ObjectIdentifier(change.box))
        taken.append((change, old?.box))
      }
    }
    state.withLock { prepared in
      for (change, replaced) in taken {
        let id = change.key.id
        if let replaced { prepared.retired.append(replaced) }
        if prepared.prepared[id] == nil { prepared.order.append(id) }
        prepared.prepared[id] = (change.key, change.box)
      }
    }
    return outcome
  }

  /// The values applied so far, in the order their keys were first prepared.
  var values: [(key: KeyType, box: AnyBox)] {
    state.withLock { state in state.order.compactMap { state.prepared[$0] } }
  }

  func isPrepared(_ id: ObjectIdentifier) -> Bool {
    state.withLock { $0.prepared[id] != nil }
  }
}

extension EntryPointRecord.Outcome {
  /// The report for a call that was not the first, or that kept or skipped a value; nil for a
  /// first call that applied everything, and for a preview's later call.
  func message(at site: SourceSite, context: DependencyContext) -> String? {
    func names(_ keys: [KeyType]) -> String {
      keys.map(\.name).joined(separator: ", ")
    }
    var parts: [String] = []
    if let firstCall, context != .preview {
      parts.append(
        "prepareDependencies was called again, at \(site); the first call was at \(firstCall)."
      )
    } else if !kept.isEmpty {
      parts.append(
        "prepareDependencies at \(site) came after the process root had built or read values "
          + "it sets."
      )
    }
    if !kept.isEmpty {
      parts.append(
        "Not applied, so that nothing already handed out changes: \(names(kept)) (built, read "
          + "or prepared before this call)."
      )
    }
    if !transient.isEmpty {
      parts.append(
        "Not applied: \(names(transient)), transient (built on every read), so there is no "
          + "value to prepare; override it with withDependencies."
      )
    }
    guard !parts.isEmpty else { return nil }
    if !applied.isEmpty { parts.append("Applied: \(names(applied)).") }
    parts.append(
      "Fix: call prepareDependencies once, first thing at launch (the app's init or main), "
        + "before anything reads a dependency; use withDependencies to change values for part of "
        + "the app."
    )
    return parts.joined(separator: " ")
  }
}

/// The boxes of the values the user handed in as built ones (`prepareDependencies`), by
/// identity: the user's, never shut down. An attachment of the root they were handed to.
final class HandedInValues: @unchecked Sendable {
  /// Written and read only under the storage's lock (`StorageState.attachment(_:)`).
  var boxes: Set<ObjectIdentifier> = []
}
