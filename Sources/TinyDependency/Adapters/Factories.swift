/// The hook `DependencyFactory` (Conveniences/) stands on: a product made at a call runs as a
/// build of the factory's key, so that its reads are the key's edges and its caller's inputs,
/// and a cached product is kept beside the container the call ran in, released with it.

extension BuildFrame {
  /// The frame of a product of `key`'s factory made at a call in `values`: read by the build
  /// in progress there, if any.
  package static func product(of key: any DependencyKey.Type, in values: DependencyValues)
    -> BuildFrame
  {
    BuildFrame(
      keyType: key,
      context: values.storage.context,
      parent: values.frame,
      observer: values.storage.observer,
      isProduct: true
    )
  }

  /// Runs `body` as this thread's innermost build, with `values` bound as current and recording
  /// its reads here; then ends the build and has the build that called it record them too.
  package func run<R>(in values: DependencyValues, _ body: () -> R) -> (R, Trace) {
    let result = runAsInnermost(on: ThreadBuilds.current) {
      values.recording(in: self).bind(body)
    }
    let trace = finish()
    values.frame?.record(keyType, inputs: trace.inputs)
    FactoryReads.record(key, trace.reads)
    return (result, trace)
  }

  /// Waits until this build has made the product a call of `key` waits for, as a read waits
  /// for a build: a cycle on this thread or across threads stops, a long wait warns once.
  /// `waitOnce(timeout)` waits at most that long and returns whether the product is there.
  package func waitForProduct(
    of key: any DependencyKey.Type,
    in values: DependencyValues,
    _ waitOnce: (_ timeout: Double) -> Bool
  ) {
    BuildFrame.wait(for: self, reading: key, observer: values.storage.observer, waitOnce)
  }

  /// Whether this thread runs a build now: a product made here is part of it. A thread-local
  /// read, with no retain: the check a plain factory's call makes.
  package static var isRunningOnThisThread: Bool { ThreadBuilds.current.innermost != nil }

  /// Whether a graph trace or a validation watches this build.
  package var isTraced: Bool { observer?.tracesStops == true }

  /// Whether the key's value for this build's context is, so far, the fallback to its default.
  package var fellBackToDefault: Bool { hasFallenBack }
}

extension DependencyValues {
  /// A number naming this container's storage and no other of the process, taken without a
  /// retain: what a cached factory's last hit is checked against.
  @inlinable
  package var containerNumber: UInt64 { storage.serial }

  /// Whether an attachment lookup here asks this container's alone: a root's (nothing above it
  /// is reused), whose answers therefore never change.
  package var asksNoAttachmentAbove: Bool { storage.parent == nil || storage.choosesContext }

  /// Asks `body` about the attachments of type `T` of this container and of those it derives
  /// from, innermost first, with a test of whether keys changed in between; the first answer
  /// wins.
  package func firstInAttachments<T: AnyObject & Sendable, R>(
    _ type: T.Type,
    _ body: (T, _ changed: (Set<ObjectIdentifier>) -> Bool) -> R?
  ) -> R? {
    var changed = KeySet()
    var node: DependencyStorage? = storage
    while let current = node {
      let (table, placed) =
        current.state.lockedIfMade?.withLock { ($0.existingAttachment(T.self), $0.placed?.keys) }
        ?? (nil, nil)
      if let table, let found = body(table, { !changed.isDisjoint(with: $0) }) { return found }
      if current.choosesContext { return nil }
      changed.formUnion(current.changedKeys)
      changed.add(placed)
      node = current.parent
    }
    return nil
  }
}

/// What the products of each factory key read, recorded by their first build: the key's edges
/// in a container's graph, whose entry for the key shows only what its factory's build read.
package enum FactoryReads {
  private static let reads = Locked<[ObjectIdentifier: [KeyType]]>([:])

  static func record(_ key: ObjectIdentifier, _ keys: [KeyType]) {
    reads.withLock { if $0[key] == nil { $0[key] = keys } }
  }

  /// The keys the products of `key`'s factory read, if one was made.
  package static func reads(of key: KeyType) -> [KeyType] {
    reads.withLock { $0[key.id] } ?? []
  }
}

/// The product a cached factory handed out last in a root container, with the container's
/// number: a call in the same root with an equal argument takes it with one lock and no
/// hashing. It refers to the product unowned: the root's table owns it, and only a call in that
/// root, which keeps the table alive, follows the reference. Here, in the core, so that the
/// current container and the lock are specialized: one call from the factories' module.
@usableFromInline
package final class LastHitMemo: Sendable {
  private struct Slot {
    var number: UInt64 = 0
    var hit: Unmanaged<AnyObject>?
  }

  private let slot = Locked(Slot())

  @usableFromInline package init() {}

  /// The last hit, if it was made in the container current here (numbers start at 1).
  @usableFromInline
  package func hitInCurrentContainer() -> AnyObject? {
    let number = DependencyValues.current.storage.serial
    return slot.withLock { $0.number == number ? $0.hit?.takeUnretainedValue() : nil }
  }

  /// Refers to `hit`, which the table of the container numbered `number` keeps, as the last hit.
  package func remember(_ hit: AnyObject, in number: UInt64) {
    slot.withLock { $0 = Slot(number: number, hit: Unmanaged.passUnretained(hit)) }
  }
}
