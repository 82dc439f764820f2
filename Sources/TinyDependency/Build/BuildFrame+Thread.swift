/// The builds running on each thread: how a build knows what runs beneath it on its thread
/// (cycles, stack depth), and the binding the thread's last build left for the next.
extension BuildFrame {
  /// The innermost build running on the calling thread, through any container.
  static var innermostOnThisThread: BuildFrame? { ThreadBuilds.current.innermost }

  /// Runs `body` as the innermost build of `thread`, the calling thread's record. The record
  /// holds the frame unretained: `self` is alive for the whole call.
  func runAsInnermost<R>(on thread: ThreadBuilds, _ body: () -> R) -> R {
    let previous = thread.innermost
    thread.innermost = self
    defer { thread.innermost = previous }
    return withExtendedLifetime(self) { body() }
  }

  /// The builds this thread runs, innermost first, from the innermost one down to `frame`, if
  /// `frame` is one of them: reading its key again here can only wait for itself.
  static func threadStack(downTo frame: BuildFrame) -> [BuildFrame]? {
    let stack = threadStack()
    return stack.firstIndex { $0 === frame }.map { Array(stack[...$0]) }
  }

  /// The builds this thread runs, innermost first.
  static func threadStack() -> [BuildFrame] {
    var stack: [BuildFrame] = []
    var current = innermostOnThisThread
    while let running = current {
      stack.append(running)
      current = running.previousOnThread
    }
    return stack
  }
}

/// What a thread keeps of the builds it runs: the innermost one. Made on the thread's first
/// build, released when it exits; only its own thread touches it, so a build sets no
/// thread-specific value, it writes this field.
final class ThreadBuilds {
  /// The innermost build running on this thread, unretained: it is alive while it runs.
  unowned(unsafe) var innermost: BuildFrame?

  private static let slot = SystemInterface.ThreadSlot(releasingOnExit: true)

  /// The calling thread's record.
  static var current: ThreadBuilds {
    if let raw = slot.value {
      return Unmanaged<ThreadBuilds>.fromOpaque(raw).takeUnretainedValue()
    }
    let made = ThreadBuilds()
    slot.value = Unmanaged.passRetained(made).toOpaque()
    return made
  }
}

extension BuildFrame {
  /// The build the calling code runs in: the synchronous build innermost on this thread, else
  /// the asynchronous build (a lifecycle's builder) bound to this task, which may hop threads.
  package static var running: BuildFrame? { innermostOnThisThread ?? DependencyValues.bound?.frame }
}

extension BuildFrame {
  /// Waits until `builder` has built what a read of `key` waits for: `waitOnce(timeout)` waits
  /// at most `timeout` seconds and returns whether it has. Stops with the cycle that makes the
  /// wait endless: the builder runs on this thread, or waits, through other threads, for a build
  /// this thread runs. A wait that goes on for long is warned of, once, but not stopped: a
  /// build may be slow, and a blocking hand-off to another thread looks the same from here.
  /// Reads of a storage's entries and a cached factory's calls wait here alike.
  static func wait(
    for builder: BuildFrame,
    reading key: any DependencyKey.Type,
    observer: (any DependencyObserver)?,
    _ waitOnce: (_ timeout: Double) -> Bool
  ) {
    if let stack = BuildFrame.threadStack(downTo: builder) {
      Diagnostics.stopWithCycle(stack.reversed(), reentering: [key], observer: observer)
    }
    let stack = BuildFrame.threadStack()
    if let innermost = stack.first { BlockedThreads.register(innermost, waitingOn: builder) }
    defer { if !stack.isEmpty { BlockedThreads.unregister() } }
    let started = SystemInterface.monotonicSeconds()
    var warned = false
    while true {
      if let loop = BlockedThreads.loop(from: stack, waitingOn: builder) {
        Diagnostics.stopWithCycle(
          loop.path,
          reentering: loop.continuation,
          acrossThreads: true,
          observer: observer
        )
      }
      if waitOnce(0.25) { return }
      let waited = SystemInterface.monotonicSeconds() - started
      if !warned && waited >= Diagnostics.handOffWarningDelay && observer?.tracesStops != true {
        warned = true
        if builder.claimWaitWarning() {
          Diagnostics.warnOfLongWait(for: builder, reading: key)
        }
      }
    }
  }
}
