/// Which build each async builder awaits, guarded by one lock so that two builds that start
/// awaiting each other at the same moment cannot both miss the cycle.
enum AwaitingBuilds {
  /// The build each waiting build awaits, by the waiter's identity. A waiter is in the map only
  /// between ``begin(_:awaiting:)`` and ``end(_:)``, so it is alive while it is a key.
  private static let edges = Locked<[ObjectIdentifier: PendingBuild]>([:])

  /// Notes that `waiter` awaits `target`; returns the loop that closes, outermost first and
  /// ending with `waiter` again, if `target` (through the builds it awaits) awaits `waiter`.
  static func begin(_ waiter: PendingBuild, awaiting target: PendingBuild) -> [PendingBuild]? {
    edges.withLock { edges in
      // Every loop is found when it closes, so the chain from `target` ends or reaches `waiter`.
      var node: PendingBuild? = target
      while let current = node, current !== waiter { node = edges[ObjectIdentifier(current)] }
      guard node != nil else {
        edges[ObjectIdentifier(waiter)] = target
        return nil
      }
      var loop = [waiter]
      node = target
      while let current = node, current !== waiter {
        loop.append(current)
        node = edges[ObjectIdentifier(current)]
      }
      // From the build made first, which is where the prepare that closed the loop began.
      let first = loop.indices.min { loop[$0].serial < loop[$1].serial }!
      let rotated = Array(loop[first...] + loop[..<first])
      return rotated + [rotated[0]]
    }
  }

  /// The build at the end of the chain `start` awaits: the one that keeps it waiting.
  static func deepest(from start: PendingBuild) -> PendingBuild {
    edges.withLock { edges in
      var node = start
      while let next = edges[ObjectIdentifier(node)] { node = next }
      return node
    }
  }

  /// Notes that `waiter` awaits nothing any more.
  static func end(_ waiter: PendingBuild) {
    let removed = edges.withLock { $0.removeValue(forKey: ObjectIdentifier(waiter)) }
    withExtendedLifetime(removed) {}
  }

  /// The builds awaiting, directly or through others, `target`, from the outermost down.
  static func chain(to target: PendingBuild, from start: PendingBuild) -> [PendingBuild]? {
    edges.withLock { edges in
      var path: [PendingBuild] = []
      var node: PendingBuild? = start
      while let current = node {
        path.append(current)
        if current === target { return path }
        node = edges[ObjectIdentifier(current)]
      }
      return nil
    }
  }
}

/// A counter shared by threads.
struct Counter: Sendable {
  private let count = Locked<UInt64>(0)

  func next() -> UInt64 {
    count.withLock {
      $0 += 1
      return $0
    }
  }
}

/// Waits in one task for several builds: until all settled, or one failed.
final class BuildJoin: Sendable {
  private struct State {
    var remaining = 0
    var continuation: CheckedContinuation<Void, any Error>?
    var outcome: Result<Void, any Error>?
    var observations: [(build: PendingBuild, id: UInt64)] = []
  }

  private let state = Locked(State())

  /// Returns when every build in `builds` has a value; throws the first failure (then stops
  /// observing the rest, so builds nobody else waits for are cancelled), or a
  /// `CancellationError` when the calling task is cancelled.
  func wait(for builds: [PendingBuild]) async throws {
    guard !builds.isEmpty else { return }
    state.withLock { $0.remaining = builds.count }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let early = state.withLock { state -> Result<Void, any Error>? in
          if let outcome = state.outcome { return outcome }
          state.continuation = continuation
          return nil
        }
        if let early { return continuation.resume(with: early) }
        for build in builds {
          let (id, ready) = build.observe { [self] in self.settled($0) }
          if let ready { settled(ready) }
          guard let id else { continue }
          let finished = state.withLock { state -> Bool in
            if state.outcome != nil { return true }
            state.observations.append((build, id))
            return false
          }
          if finished { build.stopObserving(id) }
        }
      }
    } onCancel: {
      finish(.failure(CancellationError()))
    }
  }

  private func settled(_ result: Result<BuiltValue, any Error>) {
    switch result {
    case .failure(let error):
      finish(.failure(error))
    case .success:
      let done = state.withLock { state -> Bool in
        state.remaining -= 1
        return state.remaining == 0
      }
      if done { finish(.success(())) }
    }
  }

  private func finish(_ result: Result<Void, any Error>) {
    let (continuation, observations) = state.withLock {
      state -> (CheckedContinuation<Void, any Error>?, [(build: PendingBuild, id: UInt64)]) in
      guard state.outcome == nil else { return (nil, []) }
      state.outcome = result
      defer {
        state.continuation = nil
        state.observations = []
      }
      return (state.continuation, state.observations)
    }
    if case .failure = result {
      for observation in observations { observation.build.stopObserving(observation.id) }
    }
    continuation?.resume(with: result)
  }
}
