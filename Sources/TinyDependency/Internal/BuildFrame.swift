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
  let keyName: String
  let context: DependencyContext
  let parent: BuildFrame?

  private let lock = Lock()
  private var inputs: Set<ObjectIdentifier> = []
  private var isFinished = false

  init(key: ObjectIdentifier, keyName: String, context: DependencyContext, parent: BuildFrame?) {
    self.key = key
    self.keyName = keyName
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
  let names = path.map(\.keyName) + [keyName]
  let context = path.last?.context ?? .default
  let message = """
    TinyDependency: dependency cycle in the \(context) context: \
    \(names.joined(separator: " -> ")).
    \(keyName) is read again while its own value is being built, so it can never finish. \
    Fix: read one of these dependencies lazily (inside a method, not while the value is built), \
    or break the cycle by moving what both need into a key of its own.
    """
  SystemInterface.writeToStandardError(message)
  fatalError(message)
}
