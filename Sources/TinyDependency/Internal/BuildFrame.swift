/// One key's value being built: what it has read so far, and which build started it.
///
/// A frame travels inside the ``DependencyValues`` bound as current while the key's value is
/// built, so every read during the build records itself here without a second task-local
/// lookup. Frames link to the build that triggered them; that chain is how a cycle is found.
///
/// `@unchecked Sendable`: the mutable state is guarded by `lock`; the rest is immutable.
@usableFromInline
final class BuildFrame: @unchecked Sendable {
  let key: ObjectIdentifier
  /// The key type, named only when a message needs it.
  let keyType: any DependencyKey.Type
  var keyName: String { _typeName(keyType, qualified: false) }
  let context: DependencyContext
  let parent: BuildFrame?
  /// Set while tracing a graph: cycles and missing inputs are recorded there instead of
  /// stopping the process.
  let recorder: TraceRecorder?
  /// The thread that runs the build; frames nested on the same thread block their parents.
  let thread = SystemInterface.currentThread()

  private let lock = Lock()
  private var inputs: Set<ObjectIdentifier> = []
  /// The keys the build read itself, in the order it first read them.
  private var reads: [any DependencyKey.Type] = []
  private var readIDs: Set<ObjectIdentifier> = []
  private var isFinished = false
  /// Set when the key's own value for the context was the protocol's fallback to its default.
  private var fellBack = false
  /// Set when the build made a `@Dependency`, which keeps the scope it was made in: the value
  /// then belongs to this scope and is not shared with the scopes around it.
  private(set) var capturedScope: Bool {
    get { lock.withLock { capturedScopeFlag } }
    set { lock.withLock { capturedScopeFlag = newValue } }
  }
  private var capturedScopeFlag = false

  init(
    keyType: any DependencyKey.Type,
    context: DependencyContext,
    parent: BuildFrame?,
    recorder: TraceRecorder?
  ) {
    self.key = ObjectIdentifier(keyType)
    self.keyType = keyType
    self.context = context
    self.parent = parent
    self.recorder = recorder
  }

  /// Records that the build read `keyType`, whose own value was built from `keyInputs`.
  func record(_ keyType: any DependencyKey.Type, inputs keyInputs: Set<ObjectIdentifier>) {
    let key = ObjectIdentifier(keyType)
    // A build that reads its own key for another context (a test value wrapping the live one)
    // depends on that other value, not on itself: no edge to itself.
    guard key != self.key else { return }
    lock.withLock {
      guard !isFinished else { return }
      inputs.insert(key)
      inputs.formUnion(keyInputs)
      if readIDs.insert(key).inserted { reads.append(keyType) }
    }
  }

  /// Records, for a trace that stops here, what this build and the ones around it read so far.
  func recordUnfinishedChain() {
    var frame: BuildFrame? = self
    var child: BuildFrame?
    while let current = frame {
      let snapshot = current.lock.withLock { current.isFinished ? nil : current.reads }
      if let snapshot {
        // The build below this one is in progress, so this one has not recorded reading it.
        let reads = snapshot + (child.map { [$0.keyType] } ?? [])
        recorder?.recordBuild(of: current.keyType, reads: reads, fellBack: false)
      }
      child = current
      frame = current.parent
    }
  }

  /// Notes that the build made a `@Dependency` that captured its scope.
  func noteCapture() {
    capturedScope = true
  }

  /// Notes that the key fell back to its default value, if it is this build's key and
  /// `context` is the one being built (a test value may call another key's `testValue`).
  func noteFallback(of keyType: any DependencyKey.Type, in context: DependencyContext) {
    guard context == self.context, ObjectIdentifier(keyType) == key else { return }
    lock.withLock { if !isFinished { fellBack = true } }
    // A validation records the fallback and stops here, before the live value is built. An
    // input has no live value: its default stops as an unset input.
    if let recorder, recorder.stopsAtLiveFallbacks, keyType.lifetime.kind != .input {
      recordUnfinishedChain()
      recorder.stop(liveFallback: keyType)
    }
  }

  /// Ends the build; returns every key it read, directly or transitively, the keys it read
  /// itself, in order, and whether its value was the fallback to the default.
  func finish() -> (inputs: Set<ObjectIdentifier>, reads: [any DependencyKey.Type], fellBack: Bool)
  {
    let result = lock.withLock {
      isFinished = true
      return (inputs, reads, fellBack)
    }
    recorder?.recordBuild(of: keyType, reads: result.1, fellBack: result.2)
    return result
  }

  var isActive: Bool { lock.withLock { !isFinished } }

  /// The active frames that the current thread is running, innermost first: this one and the
  /// parents it runs nested in, up to one started on another thread.
  func threadChain() -> [BuildFrame] {
    let thread = SystemInterface.currentThread()
    var chain: [BuildFrame] = []
    var frame: BuildFrame? = self
    while let current = frame, current.thread == thread, current.isActive {
      chain.append(current)
      frame = current.parent
    }
    return chain
  }

  /// The active frames from the outermost build down to this one, if one of them builds `key`
  /// for `context`. A key may be read again for another context (a test value that wraps the
  /// live one, say): that is not a cycle.
  func cyclePath(reentering key: ObjectIdentifier, in context: DependencyContext) -> [BuildFrame]? {
    var chain: [BuildFrame] = []
    var frame: BuildFrame? = self
    var found = false
    while let current = frame {
      if current.isActive {
        chain.append(current)
        if current.key == key && current.context == context {
          found = true
          break
        }
      }
      frame = current.parent
    }
    return found ? chain.reversed() : nil
  }

  /// Whether `frame` is this frame or one of the active builds that led to it.
  func chainContains(_ frame: BuildFrame) -> Bool {
    var current: BuildFrame? = self
    while let candidate = current {
      if candidate === frame { return candidate.isActive }
      current = candidate.parent
    }
    return false
  }
}

/// Stops with a dependency cycle: the builds of `path`, outermost first, then the keys
/// `continuation` read from there until the loop closed. While a graph is traced, the cycle is
/// recorded and the thread parked instead.
func reportCycle(
  _ path: [BuildFrame],
  reentering continuation: [any DependencyKey.Type],
  acrossThreads: Bool = false,
  recorder: TraceRecorder?
) -> Never {
  let keys = path.map(\.keyType) + continuation
  if let recorder {
    path.last?.recordUnfinishedChain()
    recorder.stop(cycle: keys)
  }
  let names = keys.map { _typeName($0, qualified: false) }
  let context = path.last?.context ?? .default
  let reentered = names.last ?? "?"
  let threads =
    acrossThreads
    ? " The builds run on different threads, each waiting for the other's result." : ""
  let message = """
    TinyDependency: dependency cycle in the \(context) context: \
    \(names.joined(separator: " -> ")).
    \(reentered) is read again while its own value is being built, so it can never finish.\
    \(threads) \
    Fix: read one of these dependencies lazily (inside a method, not while the value is built), \
    or break the cycle by moving what both need into a key of its own.
    """
  SystemInterface.writeToStandardError(message)
  fatalError(message)
}

/// Which build each blocked thread waits for, so that waits forming a loop across threads are
/// found: the builds on those threads could never finish.
enum BlockedThreads {
  private struct Wait {
    /// The innermost build of the waiting thread.
    let innermost: BuildFrame
    /// The build, on another thread, whose value it waits for.
    let builder: BuildFrame
  }

  private static let lock = Lock()
  /// Guarded by `lock`.
  nonisolated(unsafe) private static var waits: [UInt: Wait] = [:]

  /// Notes that the calling thread, running `innermost`, waits for `builder`.
  static func register(_ innermost: BuildFrame, waitingOn builder: BuildFrame) {
    let thread = SystemInterface.currentThread()
    lock.withLock { waits[thread] = Wait(innermost: innermost, builder: builder) }
  }

  /// Notes that the calling thread no longer waits.
  static func unregister() {
    let thread = SystemInterface.currentThread()
    _ = lock.withLock { waits.removeValue(forKey: thread) }
  }

  /// The loop that waiting for `builder` would close, if any: the frames of `chain` (this
  /// thread's builds, innermost first) from where the loop enters it, outermost first, and the
  /// keys read from the innermost one around the loop back to it.
  static func loop(
    from chain: [BuildFrame],
    waitingOn builder: BuildFrame
  ) -> (path: [BuildFrame], continuation: [any DependencyKey.Type])? {
    let waits = lock.withLock { self.waits }
    var continuation: [any DependencyKey.Type] = [builder.keyType]
    var current = builder
    var seen: Set<ObjectIdentifier> = []
    while seen.insert(ObjectIdentifier(current)).inserted {
      guard let wait = waits[current.thread] else { return nil }
      // The builds on that thread from `current` down to the one that waits.
      var segment: [BuildFrame] = []
      var frame: BuildFrame? = wait.innermost
      while let nested = frame, nested !== current {
        segment.append(nested)
        frame = nested.parent
      }
      guard frame === current else { return nil }
      continuation += segment.reversed().map(\.keyType)
      continuation.append(wait.builder.keyType)
      if let index = chain.firstIndex(where: { $0 === wait.builder }) {
        return (Array(chain[0...index].reversed()), continuation)
      }
      current = wait.builder
    }
    return nil
  }
}
