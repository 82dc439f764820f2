import TinyDependency

/// Which builds each async builder awaits, guarded by one lock so that two builds that start
/// awaiting each other at the same moment cannot both miss the cycle.
///
/// A builder may await several builds at once (a `prepare` of several keys in a builder awaits
/// each in a child task), so a waiter has one edge per await in progress: awaiting one build
/// must not hide a cycle through another. The graph is small, and searched under the lock.
enum AwaitingBuilds {
  /// The builds each waiting build awaits, by the waiter's identity: one entry per await in
  /// progress (a build awaited twice at once is there twice), oldest first, never empty. A
  /// waiter is in the map only while one of its awaits is in progress, between
  /// ``begin(_:awaiting:)`` and ``end(_:awaiting:)``, so it is alive while it is a key.
  private static let edges = Locked<[ObjectIdentifier: [PendingBuild]]>([:])

  /// Notes that `waiter` awaits `target`; returns the loop that closes, outermost first and
  /// ending with `waiter` again, if `target` (through the builds it awaits) awaits `waiter`.
  static func begin(_ waiter: PendingBuild, awaiting target: PendingBuild) -> [PendingBuild]? {
    edges.withLock { edges in
      // Every loop is found when it closes, so only this edge could close one.
      guard let path = path(from: target, to: waiter, in: edges) else {
        edges[ObjectIdentifier(waiter), default: []].append(target)
        return nil
      }
      // `path` runs from `target` to `waiter`, so the loop is `waiter` followed by the rest.
      let loop = [waiter] + path.dropLast()
      // From the build made first, which is where the prepare that closed the loop began.
      let first = loop.indices.min { loop[$0].serial < loop[$1].serial }!
      let rotated = Array(loop[first...] + loop[..<first])
      return rotated + [rotated[0]]
    }
  }

  /// A build at the end of a chain `start` awaits: one that keeps it waiting.
  ///
  /// The builds `start` reaches are visited depth-first, each build's awaits oldest first; the
  /// first one reached that awaits nothing and has not settled is chosen (if every such build
  /// has settled, as one may have just before its waiter's await ends, the first of them).
  /// `start` itself when it awaits nothing.
  static func deepest(from start: PendingBuild) -> PendingBuild {
    let ends = edges.withLock { edges in
      var ends: [PendingBuild] = []
      var visited: Set<ObjectIdentifier> = []
      var stack = [start]
      while let node = stack.popLast() {
        guard visited.insert(ObjectIdentifier(node)).inserted else { continue }
        guard let awaited = edges[ObjectIdentifier(node)] else {
          ends.append(node)
          continue
        }
        // Reversed, so that the oldest await is visited first.
        stack.append(contentsOf: awaited.reversed())
      }
      return ends
    }
    // Outside the lock: a build's state has a lock of its own.
    return ends.first { !$0.isSettled } ?? ends.first ?? start
  }

  /// Notes that the await of `target` by `waiter` that ``begin(_:awaiting:)`` noted ended; the
  /// other builds `waiter` awaits keep their edges.
  static func end(_ waiter: PendingBuild, awaiting target: PendingBuild) {
    let removed = edges.withLock { edges -> PendingBuild? in
      let id = ObjectIdentifier(waiter)
      guard let index = edges[id]?.firstIndex(where: { $0 === target }) else { return nil }
      let removed = edges[id]!.remove(at: index)
      if edges[id]!.isEmpty { edges[id] = nil }
      return removed
    }
    withExtendedLifetime(removed) {}
  }

  /// The builds awaiting, directly or through others, `target`, from `start` down: a shortest
  /// such path, or nil when `start` does not await `target`.
  static func chain(to target: PendingBuild, from start: PendingBuild) -> [PendingBuild]? {
    edges.withLock { path(from: start, to: target, in: $0) }
  }

  /// A shortest path from `start` to `target` along `edges`, both included (`start` alone
  /// when they are the same build), or nil when there is none. Breadth-first, each build's
  /// awaits oldest first, so the same graph always gives the same path.
  private static func path(
    from start: PendingBuild,
    to target: PendingBuild,
    in edges: [ObjectIdentifier: [PendingBuild]]
  ) -> [PendingBuild]? {
    // Most builds await one build at a time: follow such a chain without allocating, and
    // search only when it reaches `target` or a build with several awaits. The graph has no
    // loop (each is found when it closes), so the walk ends; the bound is a safeguard.
    var node = start
    var steps = 0
    while node !== target, steps <= edges.count {
      guard let awaited = edges[ObjectIdentifier(node)] else { return nil }
      guard awaited.count == 1 else { break }
      node = awaited[0]
      steps += 1
    }
    return searchPath(from: start, to: target, in: edges)
  }

  /// ``path(from:to:in:)``'s breadth-first search.
  private static func searchPath(
    from start: PendingBuild,
    to target: PendingBuild,
    in edges: [ObjectIdentifier: [PendingBuild]]
  ) -> [PendingBuild]? {
    // Each build reached, by identity, with the build it was reached from.
    var reachedFrom: [ObjectIdentifier: PendingBuild] = [ObjectIdentifier(start): start]
    var queue = [start]
    var next = 0
    while next < queue.count {
      let node = queue[next]
      next += 1
      if node === target {
        var path = [node]
        var current = node
        while current !== start {
          current = reachedFrom[ObjectIdentifier(current)]!
          path.append(current)
        }
        return path.reversed()
      }
      for awaited in edges[ObjectIdentifier(node)] ?? []
      where reachedFrom[ObjectIdentifier(awaited)] == nil {
        reachedFrom[ObjectIdentifier(awaited)] = node
        queue.append(awaited)
      }
    }
    return nil
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

  /// Stops waiting with `error`, as a failed build would.
  func fail(_ error: any Error) { finish(.failure(error)) }

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
