/// The messages the core stops or warns with: cycles, waits that look like blocking hand-offs,
/// and strict mode's live fallbacks.
enum Diagnostics {
  /// Stops with a dependency cycle: the builds of `path`, outermost first, then the keys
  /// `continuation` read from there until the loop closed. While a graph is traced, the cycle is
  /// recorded and the thread parked instead.
  static func stopWithCycle(
    _ path: [BuildFrame],
    reentering continuation: [any DependencyKey.Type],
    acrossThreads: Bool = false,
    observer: (any DependencyObserver)?
  ) -> Never {
    var keys: [any DependencyKey.Type] = path.map(\.keyType)
    keys.append(contentsOf: continuation)
    if let observer, observer.tracesStops {
      path.last?.recordUnfinishedChain()
      observer.stop(cycle: keys)
    }
    let names = keys.map { KeyType.name(of: $0) }
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
      Fix: read one of these dependencies lazily (inside a method, not while the value is \
      built), or break the cycle by moving what both need into a key of its own.
      """
    stopWithMessage(message)
  }

  /// How many builds a thread runs inside one another before each new one checks the stack
  /// left: no common path nests this deep, so the check costs it nothing.
  static let stackCheckDepth = 64

  /// Stops a build that starts with the calling thread's stack nearly used up by the builds
  /// running inside one another (`frame` the innermost), naming where the chain starts: the
  /// next levels could overflow the stack, which ends the process with no message at all.
  /// Only the outermost keys are named: deep in such a chain, a generic key's name can be too
  /// long to print with the stack that is left.
  static func stopWithNestingTooDeep(_ frame: BuildFrame) -> Never {
    let head = frame.outermostOnThread(3).map(\.keyName)
    let message = """
      TinyDependency: \(frame.depthOnThread) builds nested inside one another on this thread \
      have nearly used up its stack, building in the \(frame.context) context: \
      \(head.joined(separator: " -> ")) -> … No key repeats, so it is \
      not a cycle, but the next levels could overflow the stack. Fix: build fewer values \
      inside one another (read a dependency lazily, inside a method, not while the value is \
      built), or read the outermost key on a thread with a larger stack.
      """
    stopWithMessage(message)
  }

  /// How long a read waits for a build on another thread before it warns that the two may be
  /// waiting for each other. The wait goes on: a build may take as long as it takes.
  static let handOffWarningDelay = 5.0

  /// Warns that a read has waited ``handOffWarningDelay`` seconds for `builder`. When the
  /// waiting thread is itself building, the warning names the loop a blocking hand-off would
  /// close: the builds that led to `builder`, then the builds of the waiting thread, then the
  /// key it reads. A read outside any build closes no loop: the warning names the other
  /// thread's builds alone, so that it does not read like a cycle (`K -> K`).
  static func warnOfLongWait(for builder: BuildFrame, reading key: any DependencyKey.Type) {
    let building = builder.activeReaderChain.map(\.keyName)
    let waiting = BuildFrame.threadStack().reversed().map(\.keyName)
    let name = KeyType.name(of: key)
    let path =
      waiting.isEmpty
      ? "that thread builds \(building.joined(separator: " -> ")); this read is outside any build"
      : "the loop a hand-off would close: "
        + (building + waiting + [name]).joined(separator: " -> ")
    let seconds = Int(handOffWarningDelay)
    SystemInterface.writeToStandardError(
      """
      TinyDependency: warning: a read of \(name) has waited \(seconds) s for its value, which \
      another thread is building in the \(builder.context) context (\(path)). If that build \
      waits for this thread (a blocking hand-off: a semaphore, a queue.sync, a join), neither \
      can ever finish. Fix: don't block a build on work that reads the key being built; read it \
      after the build, or pass the value in. If the build is only slow, this read goes on \
      waiting for it.
      """
    )
  }
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

  private static let waits = Locked<[UInt: Wait]>([:])

  /// Notes that the calling thread, running `innermost`, waits for `builder`.
  static func register(_ innermost: BuildFrame, waitingOn builder: BuildFrame) {
    let thread = SystemInterface.currentThread()
    waits.withLock { $0[thread] = Wait(innermost: innermost, builder: builder) }
  }

  /// Notes that the calling thread no longer waits.
  static func unregister() {
    let thread = SystemInterface.currentThread()
    _ = waits.withLock { $0.removeValue(forKey: thread) }
  }

  /// The loop that waiting for `builder` would close, if any: the frames of `stack` (this
  /// thread's builds, innermost first) from where the loop enters it, outermost first, and the
  /// keys read from the innermost one around the loop back to it.
  static func loop(
    from stack: [BuildFrame],
    waitingOn builder: BuildFrame
  ) -> (path: [BuildFrame], continuation: [any DependencyKey.Type])? {
    let waits = waits.withLock { $0 }
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
        frame = nested.previousOnThread
      }
      guard frame === current else { return nil }
      continuation += segment.reversed().map(\.keyType)
      continuation.append(wait.builder.keyType)
      if let index = stack.firstIndex(where: { $0 === wait.builder }) {
        return (Array(stack[0...index].reversed()), continuation)
      }
      current = wait.builder
    }
    return nil
  }
}
