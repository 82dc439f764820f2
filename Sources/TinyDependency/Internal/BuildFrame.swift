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
  /// The thread that runs the build; frames nested on the same thread block their parents.
  let thread = SystemInterface.currentThread()

  private let lock = Lock()
  private var inputs: Set<ObjectIdentifier> = []
  private var isFinished = false
  /// The build this frame's thread is blocked on, while it waits for another thread's build.
  private var blockedOn: BuildFrame?

  init(keyType: any DependencyKey.Type, context: DependencyContext, parent: BuildFrame?) {
    self.key = ObjectIdentifier(keyType)
    self.keyType = keyType
    self.context = context
    self.parent = parent
  }

  /// Records that the build read `key`, whose own value was built from `keyInputs`.
  func record(_ key: ObjectIdentifier, inputs keyInputs: Set<ObjectIdentifier>) {
    lock.withLock {
      guard !isFinished else { return }
      inputs.insert(key)
      inputs.formUnion(keyInputs)
    }
  }

  /// Ends the build and returns every key it read, directly or transitively.
  func finish() -> Set<ObjectIdentifier> {
    lock.withLock {
      isFinished = true
      return inputs
    }
  }

  private var isActive: Bool { lock.withLock { !isFinished } }

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

  /// Marks the frames of `chain` blocked on `builder`, or clears them with nil.
  static func mark(_ chain: [BuildFrame], blockedOn builder: BuildFrame?) {
    for frame in chain {
      frame.lock.withLock { frame.blockedOn = builder }
    }
  }

  /// The builds that `builder` waits for, through the threads they block, if they lead back to
  /// a frame of `chain`: then waiting would never end. Returns the key names along the loop.
  static func deadlock(waitingOn builder: BuildFrame, from chain: [BuildFrame]) -> [String]? {
    var names = [builder.keyName]
    var seen: Set<ObjectIdentifier> = [ObjectIdentifier(builder)]
    var next = builder.lock.withLock { builder.blockedOn }
    while let frame = next {
      names.append(frame.keyName)
      if chain.contains(where: { $0 === frame }) { return names }
      guard seen.insert(ObjectIdentifier(frame)).inserted else { return nil }
      next = frame.lock.withLock { frame.blockedOn }
    }
    return nil
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

/// Stops the process with the path of a dependency cycle and how to break it.
func reportCycle(_ path: [BuildFrame], reentering keyName: String) -> Never {
  reportCycle(path, reentering: [keyName], acrossThreads: false)
}

/// Stops the process with a cycle: the builds of `path`, outermost first, then the keys
/// `continuation` read from there until the loop closed.
func reportCycle(
  _ path: [BuildFrame],
  reentering continuation: [String],
  acrossThreads: Bool
) -> Never {
  let names = path.map(\.keyName) + continuation
  let context = path.last?.context ?? .default
  let reentered = continuation.last ?? "?"
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
