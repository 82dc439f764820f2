/// One key's value being built: what it has read so far, which build read it, and which build
/// ran before it on the same thread.
///
/// A frame travels inside the ``DependencyValues`` bound as current while the key's value is
/// built, so every read during the build records itself here without a second task-local
/// lookup. Two chains start at a frame:
/// - `parent`, the build that read this key (possibly on another thread, through a task or an
///   escaped scope): the path that cycle messages and graph edges follow;
/// - `previousOnThread`, the build this thread was running when this one started (through any
///   container, bound or not): the builds that block each other on this thread.
///
/// `@unchecked Sendable`: `state` is only touched inside `lock.withLock` (``withState(_:)``);
/// the other stored properties are immutable.
@usableFromInline
package final class BuildFrame: @unchecked Sendable {
  let key: ObjectIdentifier
  /// The key type, named only when a message needs it.
  private let keyTypeBox: KeyType
  package var keyType: any DependencyKey.Type { keyTypeBox.type }
  var keyName: String { KeyType.name(of: keyType) }
  package let context: DependencyContext
  /// The build that read this key, if any.
  let parent: BuildFrame?
  /// The build this thread was running when this one started, if any.
  let previousOnThread: BuildFrame?
  /// How many builds this thread runs with this one, counting it.
  let depthOnThread: Int
  /// What a layer above attached to the container the build runs in (the seam): told of the
  /// build when it finishes; while it traces a graph, cycles and missing inputs are recorded
  /// there instead of stopping the process.
  let observer: (any DependencyObserver)?
  /// The thread that runs the build.
  let thread = SystemInterface.currentThread()
  /// Whether this is a factory's product made at a call, which belongs to its caller (the
  /// calling container's table, or the build that called), not to the factory's key.
  let isProduct: Bool

  private struct State {
    var inputs: Set<ObjectIdentifier> = []
    /// The keys the build read itself, in the order it first read them.
    var reads: [KeyType] = []
    var readIDs: Set<ObjectIdentifier> = []
    var isFinished = false
    /// Set when the key's own value for the context was the protocol's fallback to its default.
    var fellBack = false
    /// How the value keeps this scope: through a `@Dependency` or an escaped scope made during
    /// the build, or held by a value it read.
    var hold = ScopeHold.none
    /// Set once a read that waited long for this build warned of it.
    var waitWarned = false
  }

  /// Guarded by `lock`: read and written only in ``withState(_:)``. Beside its lock rather than
  /// inside a ``Locked``, so that the frame is one allocation (see ``SpinLock``).
  private var state = State()
  private let lock = SpinLock()

  /// Runs `body` with the lock held and the state borrowed mutably.
  @inline(__always)
  private func withState<R>(_ body: (inout State) -> R) -> R {
    lock.withLock { body(&state) }
  }

  /// What a finished build read and kept.
  package struct Trace {
    /// Every key the build read, directly or through the keys it read.
    package let inputs: Set<ObjectIdentifier>
    /// The keys the build read itself, in order.
    let reads: [KeyType]
    /// Whether the key's value for the context was the protocol's fallback to its default.
    package let fellBack: Bool
    let hold: ScopeHold
  }

  init(
    keyType: any DependencyKey.Type,
    context: DependencyContext,
    parent: BuildFrame?,
    observer: (any DependencyObserver)?,
    isProduct: Bool = false
  ) {
    self.isProduct = isProduct
    self.key = ObjectIdentifier(keyType)
    self.keyTypeBox = KeyType(keyType)
    self.context = context
    self.parent = parent
    let previous = BuildFrame.innermostOnThisThread
    self.previousOnThread = previous
    self.depthOnThread = (previous?.depthOnThread ?? 0) + 1
    self.observer = observer
  }

  // MARK: - Recording

  /// Records that the build read `keyType`, whose own value was built from `keyInputs`.
  package func record(
    _ keyType: any DependencyKey.Type,
    inputs keyInputs: Set<ObjectIdentifier>,
    hold: ScopeHold = .none
  ) {
    let key = ObjectIdentifier(keyType)
    Diagnostics.checkCaptive(self, reading: keyType)
    withState { state in
      guard !state.isFinished else { return }
      // A value holding a capture carries its scope into whatever holds it.
      state.hold = max(state.hold, hold)
      // A build that reads its own key for another context (a test value wrapping the live
      // one) depends on that other value, not on itself: no edge to itself.
      guard key != self.key else { return }
      state.inputs.insert(key)
      state.inputs.formUnion(keyInputs)
      if state.readIDs.insert(key).inserted { state.reads.append(KeyType(keyType)) }
    }
  }

  /// Records, for a trace that stops here, what this build and the ones around it read so far.
  func recordUnfinishedChain() {
    var frame: BuildFrame? = self
    var child: BuildFrame?
    while let current = frame {
      let reads = current.withState { $0.isFinished ? nil : $0.reads }
      if let reads {
        // The build below this one is in progress, so this one has not recorded reading it;
        // unless it is this key's own (a factory's sample product, made inside its build).
        let below = child.flatMap { $0.key == current.key ? nil : [KeyType($0.keyType)] } ?? []
        observer?.didBuild(KeyType(current.keyType), reads: reads + below, fellBack: false)
      }
      child = current
      frame = current.parent
    }
  }

  /// Notes that the build made a `@Dependency` or an escaped scope that keeps its scope.
  func noteCapture(_ hold: ScopeHold) {
    withState { $0.hold = max($0.hold, hold) }
  }

  /// Notes that the key fell back to its default value, if it is this build's key and
  /// `context` is the one being built (a test value may call another key's `testValue`).
  func noteFallback(of keyType: any DependencyKey.Type, in context: DependencyContext) {
    guard context == self.context, ObjectIdentifier(keyType) == key else { return }
    withState { if !$0.isFinished { $0.fellBack = true } }
    // A validation records the fallback and stops here, before the live value is built. An
    // input has no live value: its default stops as an unset input.
    if let observer, observer.stopsAtLiveFallbacks, keyType.lifetime.kind != .input {
      recordUnfinishedChain()
      observer.stop(liveFallback: keyType)
    }
  }

  /// Ends the build and returns what it read.
  package func finish() -> Trace {
    let trace = withState { state in
      state.isFinished = true
      return Trace(
        inputs: state.inputs,
        reads: state.reads,
        fellBack: state.fellBack,
        hold: state.hold
      )
    }
    observer?.didBuild(keyTypeBox, reads: trace.reads, fellBack: trace.fellBack)
    return trace
  }

  /// Whether the build has, so far, read one of `keys` or escaped its scope: then a scope that
  /// changed `keys` can't use its value.
  func hasRead(anyOf keys: KeySet) -> Bool {
    guard !keys.isEmpty else { return false }
    return withState { !keys.isDisjoint(with: $0.inputs) || $0.hold == .escapedScope }
  }

  var isActive: Bool { withState { !$0.isFinished } }

  /// Whether the key's value so far is the protocol's fallback to its default.
  var hasFallenBack: Bool { withState { $0.fellBack } }

  /// Whether this is the first long wait for this build: only that one warns.
  func claimWaitWarning() -> Bool {
    withState { state in
      defer { state.waitWarned = true }
      return !state.waitWarned
    }
  }

  // MARK: - Paths

  /// The builds this thread ran when this one started, from the outermost one that builds the
  /// same key for the same context down to the innermost, if one does: this build would then
  /// run inside its own, and whatever container it reads through (the same one, a scope inside
  /// it, a container made during the build), it is a cycle. Only builds on this thread count:
  /// work that a build started on another thread and does not wait for blocks nothing. A key
  /// read again for another context (a test value that wraps the live one) is not a cycle.
  func cyclePathOnThread() -> [BuildFrame]? {
    var stack: [BuildFrame] = []
    var current = previousOnThread
    while let running = current {
      stack.append(running)
      if running.key == key && running.context == context { return stack.reversed() }
      current = running.previousOnThread
    }
    return nil
  }

  /// The outermost builds this thread runs, outermost first, at most `count` of them.
  func outermostOnThread(_ count: Int) -> [BuildFrame] {
    var stack: [BuildFrame] = []
    var current: BuildFrame? = self
    while let running = current {
      stack.append(running)
      current = running.previousOnThread
    }
    return Array(stack.reversed().prefix(count))
  }

  /// The active builds that led to this one, outermost first, this one last.
  var activeReaderChain: [BuildFrame] {
    var chain: [BuildFrame] = []
    var frame: BuildFrame? = self
    while let current = frame {
      if current.isActive { chain.append(current) }
      frame = current.parent
    }
    return chain.reversed()
  }
}

/// How a value keeps the scope it was built in, which decides where it may be shared.
package enum ScopeHold: Int, Comparable, Sendable {
  /// Not at all: the value is shared with every scope that overrides nothing it read.
  case none
  /// It holds a `@Dependency` made in its scope. Reads through the wrapper combine that scope
  /// with the one they happen in, so scopes inside may reuse the value; the scopes around may
  /// not, or they would see this scope's overrides.
  case wrapper
  /// It holds an escaped scope, which re-enters exactly that scope: it is neither shared with
  /// the scopes around nor reused by scopes inside that override anything.
  case escapedScope

  package static func < (lhs: ScopeHold, rhs: ScopeHold) -> Bool { lhs.rawValue < rhs.rawValue }
}
