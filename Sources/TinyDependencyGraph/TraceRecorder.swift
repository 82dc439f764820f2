import TinyDependency

/// Collects what stops a traced resolution (a cycle, an unset input) instead of stopping the
/// process, for ``DependencyGraph/trace(_:context:configure:)``.
///
/// A resolution traced this way runs on a thread of its own. When it meets a cycle or an unset
/// input, there is no value to return and no way to unwind the builders above it, so the
/// recorder notes the problem, wakes the tracer and ends that thread. The values it was
/// building are never released: tracing is meant for test suites and checks that run once.
final class TraceRecorder: DependencyObserver {
  /// Whether a key's fallback to its live default is recorded and stops the resolution, so
  /// that no live value is built (validation).
  let stopsAtLiveFallbacks: Bool

  private struct State {
    var isDone = false
    /// Set once the trace's `configure` returned; the stall timeout counts from there.
    var isConfigured = false
    /// The container as `configure` left it: what was contributed and registered there.
    var configured: DependencyValues?
    var cycles: [[KeyType]] = []
    var missingInputs: [KeyType] = []
    var builds: [(key: KeyType, reads: [KeyType])] = []
    var fallbacks: [ObjectIdentifier: KeyType] = [:]
  }

  /// Whether a stop parks the calling thread; if not (on the main actor, which must go on),
  /// it stops the process with a message.
  let parks: Bool

  private let state = Locked(State())

  init(stopsAtLiveFallbacks: Bool = false, parks: Bool = true) {
    self.stopsAtLiveFallbacks = stopsAtLiveFallbacks
    self.parks = parks
  }

  /// Records a finished build: what it read, and whether it used its default as a fallback.
  /// A trace takes the stops of the builds it runs.
  var tracesStops: Bool { true }

  func didBuild(_ key: KeyType, reads: [KeyType], fellBack: Bool) {
    state.withLock { state in
      state.builds.append((key, reads))
      if fellBack { state.fallbacks[key.id] = key }
    }
  }

  /// Every build recorded so far, and the keys that fell back to their default value.
  var recordedBuilds:
    (
      builds: [(key: any DependencyKey.Type, reads: [any DependencyKey.Type])],
      fallbacks: [any DependencyKey.Type]
    )
  {
    state.withLock { state in
      (
        state.builds.map { ($0.key.type, $0.reads.map(\.type)) },
        state.fallbacks.values.map(\.type)
      )
    }
  }

  /// Records a cycle, then parks the calling thread.
  func stop(cycle keys: [any DependencyKey.Type]) -> Never {
    let names = keys.map { readableTypeName($0, qualified: false) }.joined(separator: " -> ")
    return stop(
      "met a dependency cycle: \(names). Read one of these lazily, or move what both need into "
        + "a key of its own."
    ) { $0.cycles.append(keys.map(KeyType.init)) }
  }

  /// Records that `key` was about to build its live default for want of a value for the
  /// context, then parks the calling thread before it does.
  func stop(liveFallback key: any DependencyKey.Type) -> Never {
    let name = readableTypeName(key, qualified: false)
    return stop("reached \(name), which has no testValue. Declare one on \(name).") {
      $0.fallbacks[ObjectIdentifier(key)] = KeyType(key)
    }
  }

  /// Records an input read while unset, then parks the calling thread.
  func stop(missingInput key: any DependencyKey.Type) -> Never {
    let name = readableTypeName(key, qualified: false)
    return stop(
      "read \(name) while nothing had set it (an input, or an async key, which validation "
        + "does not prepare). Set it in `configure`."
    ) { $0.missingInputs.append(KeyType(key)) }
  }

  /// Records the problem, then parks the calling thread, or, where it may not park, stops the
  /// process with `problem` in the message.
  private func stop(_ problem: String, recording change: (inout State) -> Void) -> Never {
    state.withLock { state in
      change(&state)
      state.isDone = true
    }
    state.broadcast()
    guard parks else {
      let message = """
        TinyDependency: a trace on the main actor \(problem)
        A main-actor build cannot stop halfway and let the main actor go on, so the trace \
        stops the process here.
        """
      SystemInterface.writeToStandardError(message)
      fatalError(message)
    }
    TraceThreads.park()
  }

  /// Marks the trace's `configure` finished.
  func finishConfiguring(_ values: DependencyValues) {
    state.withLock {
      $0.isConfigured = true
      $0.configured = values
    }
    state.broadcast()
  }

  /// The container as the trace's `configure` left it, once it returned.
  var configured: DependencyValues? { state.withLock { $0.configured } }

  /// Marks the traced resolution finished.
  func finish() {
    state.withLock { $0.isDone = true }
    state.broadcast()
  }

  /// Waits until the resolution of `key` finished or stopped, or `timeout` seconds went by
  /// after `configure` returned; returns what stopped it, and whether it is still running.
  ///
  /// `configure` itself is waited for without a limit (it is the caller's code, and the caller
  /// must not go on while it runs), with a line on standard error every `timeout` seconds.
  func waitUntilDone(timeout: Double, key: any DependencyKey.Type) -> (
    cycles: [[any DependencyKey.Type]], missingInputs: [any DependencyKey.Type], stalled: Bool
  ) {
    var waitedForConfigure = 0.0
    while !state.wait(while: { !$0.isDone && !$0.isConfigured }, timeout: timeout) {
      waitedForConfigure += timeout
      SystemInterface.writeToStandardError(
        "TinyDependency: tracing \(KeyType(key).name): `configure` has not "
          + "returned after \(Int(waitedForConfigure)) s; still waiting for it."
      )
    }
    let finished = state.wait(while: { !$0.isDone }, timeout: timeout)
    return state.withLock { state in
      (state.cycles.map { $0.map(\.type) }, state.missingInputs.map(\.type), !finished)
    }
  }
}
