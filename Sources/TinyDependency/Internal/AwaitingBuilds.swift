/// Which build each async builder awaits, guarded by one lock so that two builds that start
/// awaiting each other at the same moment cannot both miss the cycle.
enum AwaitingBuilds {
  private static let lock = Lock()

  /// Notes that `waiter` awaits `target`; returns the loop that closes, outermost first and
  /// ending with `waiter` again, if `target` (through the builds it awaits) awaits `waiter`.
  static func begin(_ waiter: PendingBuild, awaiting target: PendingBuild) -> [PendingBuild]? {
    lock.withLock {
      // Every loop is found when it closes, so the chain from `target` ends or reaches `waiter`.
      var node: PendingBuild? = target
      while let current = node, current !== waiter { node = current.awaiting }
      guard node != nil else {
        waiter.awaiting = target
        return nil
      }
      var loop = [waiter]
      node = target
      while let current = node, current !== waiter {
        loop.append(current)
        node = current.awaiting
      }
      // From the build made first, which is where the prepare that closed the loop began.
      let first = loop.indices.min { loop[$0].serial < loop[$1].serial }!
      let rotated = Array(loop[first...] + loop[..<first])
      return rotated + [rotated[0]]
    }
  }

  /// The build at the end of the chain `start` awaits: the one that keeps it waiting.
  static func deepest(from start: PendingBuild) -> PendingBuild {
    lock.withLock {
      var node = start
      while let next = node.awaiting { node = next }
      return node
    }
  }

  /// Notes that `waiter` awaits nothing any more.
  static func end(_ waiter: PendingBuild) {
    lock.withLock { waiter.awaiting = nil }
  }

  /// The builds awaiting, directly or through others, `target`, from the outermost down.
  static func chain(to target: PendingBuild, from start: PendingBuild) -> [PendingBuild]? {
    lock.withLock {
      var path: [PendingBuild] = []
      var node: PendingBuild? = start
      while let current = node {
        path.append(current)
        if current === target { return path }
        node = current.awaiting
      }
      return nil
    }
  }
}

/// A counter shared by threads.
///
/// `@unchecked Sendable`: `count` is guarded by `lock`.
final class Counter: @unchecked Sendable {
  private let lock = Lock()
  private var count: UInt64 = 0

  func next() -> UInt64 {
    lock.withLock {
      count += 1
      return count
    }
  }
}

extension KeyType {
}

/// Waits in one task for several builds: until all settled, or one failed.
///
/// `@unchecked Sendable`: the mutable state is guarded by `lock`.
final class BuildJoin: @unchecked Sendable {
  private let lock = Lock()
  private var remaining = 0
  private var continuation: CheckedContinuation<Void, any Error>?
  private var outcome: Result<Void, any Error>?
  private var observations: [(build: PendingBuild, id: UInt64)] = []

  /// Returns when every build in `builds` has a value; throws the first failure (then stops
  /// observing the rest, so builds nobody else waits for are cancelled), or a
  /// `CancellationError` when the calling task is cancelled.
  func wait(for builds: [PendingBuild]) async throws {
    guard !builds.isEmpty else { return }
    lock.withLock { remaining = builds.count }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let early = lock.withLock { () -> Result<Void, any Error>? in
          if let outcome { return outcome }
          self.continuation = continuation
          return nil
        }
        if let early { return continuation.resume(with: early) }
        for build in builds {
          let (id, ready) = build.observe { [self] in self.settled($0) }
          if let ready { settled(ready) }
          guard let id else { continue }
          let finished = lock.withLock { () -> Bool in
            if outcome != nil { return true }
            observations.append((build, id))
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
      let done = lock.withLock { () -> Bool in
        remaining -= 1
        return remaining == 0
      }
      if done { finish(.success(())) }
    }
  }

  private func finish(_ result: Result<Void, any Error>) {
    let (continuation, observations) = lock.withLock {
      () -> (CheckedContinuation<Void, any Error>?, [(build: PendingBuild, id: UInt64)]) in
      guard outcome == nil else { return (nil, []) }
      outcome = result
      defer {
        self.continuation = nil
        self.observations = []
      }
      return (self.continuation, self.observations)
    }
    if case .failure = result {
      for observation in observations { observation.build.stopObserving(observation.id) }
    }
    continuation?.resume(with: result)
  }
}
