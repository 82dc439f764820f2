import Dispatch
import TinyDependency

/// The deadlines of every waiting `prepare`, watched by one sleeping task rather than one each.
///
/// A task per deadline that sleeps until it and is cancelled when its prepare returns would hold
/// its memory until the deadline all the same (on Linux a cancelled `Task.sleep` keeps its timer
/// until then): a server preparing per request would hold every request's task for the timeout.
/// Here a deadline is an entry in a heap; cancelling one removes its action at once, and the
/// heap is compacted when most of its entries are cancelled. A sleeper is never cancelled: one
/// sleeps until the earliest deadline, and another starts only for a deadline earlier than
/// every sleeper's, so with deadlines that grow (the same timeout each time) one task sleeps.
final class Deadlines: Sendable {
  /// The deadlines of the process.
  static let shared = Deadlines()

  private struct Entry {
    let deadline: UInt64
    let id: UInt64
  }

  private struct State {
    /// A min-heap by deadline; entries whose action is gone were cancelled.
    var heap: [Entry] = []
    var actions: [UInt64: @Sendable () -> Void] = [:]
    var lastID: UInt64 = 0
    /// When each sleeping task wakes.
    var sleepers: [UInt64] = []
  }

  private let state = Locked(State())

  private static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

  /// Calls `action` once `seconds` have passed, unless ``cancel(_:)`` is called first; returns
  /// the deadline's number.
  func schedule(after seconds: Double, _ action: @escaping @Sendable () -> Void) -> UInt64 {
    let clamped = max(0, min(seconds, 1e9))
    let deadline = Self.now &+ UInt64(clamped * 1e9)
    let (id, startsSleeper) = state.withLock { state -> (UInt64, Bool) in
      state.lastID += 1
      state.actions[state.lastID] = action
      Self.push(Entry(deadline: deadline, id: state.lastID), onto: &state.heap)
      guard !state.sleepers.contains(where: { $0 <= deadline }) else {
        return (state.lastID, false)
      }
      state.sleepers.append(deadline)
      return (state.lastID, true)
    }
    if startsSleeper { Task.detached { await self.watch(until: deadline) } }
    return id
  }

  /// Forgets the deadline numbered `id`: its action will not run.
  func cancel(_ id: UInt64) {
    let removed = state.withLock { state -> (@Sendable () -> Void)? in
      let removed = state.actions.removeValue(forKey: id)
      if state.heap.count > 64 && state.actions.count < state.heap.count / 4 {
        state.heap = state.heap.filter { state.actions[$0.id] != nil }
        Self.heapify(&state.heap)
      }
      return removed
    }
    // The action's captures are released here, outside the lock.
    withExtendedLifetime(removed) {}
  }

  /// How many deadlines are pending, cancelled ones included until they are dropped; for tests.
  var pendingCount: (live: Int, entries: Int) {
    state.withLock { ($0.actions.count, $0.heap.count) }
  }

  /// Sleeps until `wake`, runs the actions that are due, and goes on with the next deadline
  /// unless another sleeper wakes before it.
  private func watch(until wake: UInt64) async {
    var wake = wake
    while true {
      let now = Self.now
      if wake > now { try? await Task.sleep(nanoseconds: wake - now) }
      let (due, next) = state.withLock { state -> ([@Sendable () -> Void], UInt64?) in
        let now = Self.now
        var due: [@Sendable () -> Void] = []
        while let top = state.heap.first, top.deadline <= now || state.actions[top.id] == nil {
          Self.popFirst(from: &state.heap)
          if let action = state.actions.removeValue(forKey: top.id) { due.append(action) }
        }
        if let index = state.sleepers.firstIndex(of: wake) { state.sleepers.remove(at: index) }
        guard let next = state.heap.first?.deadline,
          !state.sleepers.contains(where: { $0 <= next })
        else { return (due, nil) }
        state.sleepers.append(next)
        return (due, next)
      }
      for action in due { action() }
      guard let next else { return }
      wake = next
    }
  }

  // MARK: - The heap

  private static func push(_ entry: Entry, onto heap: inout [Entry]) {
    heap.append(entry)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].deadline < heap[parent].deadline else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private static func popFirst(from heap: inout [Entry]) {
    heap.swapAt(0, heap.count - 1)
    heap.removeLast()
    siftDown(from: 0, in: &heap)
  }

  private static func siftDown(from start: Int, in heap: inout [Entry]) {
    var parent = start
    while true {
      var smallest = parent
      for child in [2 * parent + 1, 2 * parent + 2]
      where child < heap.count && heap[child].deadline < heap[smallest].deadline {
        smallest = child
      }
      guard smallest != parent else { return }
      heap.swapAt(parent, smallest)
      parent = smallest
    }
  }

  private static func heapify(_ heap: inout [Entry]) {
    for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) {
      siftDown(from: index, in: &heap)
    }
  }
}

extension Deadlines {
  /// Returns once `seconds` have passed; throws `CancellationError` at once, and forgets the
  /// deadline, when the calling task is cancelled first.
  func wait(seconds: Double) async throws {
    let wait = DeadlineWait()
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        wait.start(continuation, deadline: schedule(after: seconds) { wait.end(.success(())) })
      }
    } onCancel: {
      wait.end(.failure(CancellationError()))
    }
  }
}

/// One task sleeping until a deadline: resumed once, by the deadline or by a cancellation.
private final class DeadlineWait: Sendable {
  private struct State {
    var continuation: CheckedContinuation<Void, any Error>?
    var deadline: UInt64?
    var outcome: Result<Void, any Error>?
  }

  private let state = Locked(State())

  func start(_ continuation: CheckedContinuation<Void, any Error>, deadline: UInt64) {
    let early = state.withLock { state -> Result<Void, any Error>? in
      state.deadline = deadline
      if let outcome = state.outcome { return outcome }
      state.continuation = continuation
      return nil
    }
    if let early {
      Deadlines.shared.cancel(deadline)
      continuation.resume(with: early)
    }
  }

  func end(_ outcome: Result<Void, any Error>) {
    let (continuation, deadline) = state.withLock { state in
      if state.outcome == nil { state.outcome = outcome }
      defer { state.continuation = nil }
      return (state.continuation, state.deadline)
    }
    if let deadline { Deadlines.shared.cancel(deadline) }
    continuation?.resume(with: outcome)
  }
}

/// Runs `body`; if it is still running after `seconds`, calls `onTimeout` (once), which must
/// make `body` end.
///
/// The seconds count from when a task of the cooperative pool first runs after the call, as
/// they did when each call started a watchdog task: a process whose pool is busy for a while
/// (a test run of hundreds of suites on two cores) does not time out builds that never got to
/// run. That task only registers the deadline and ends at once, so it holds nothing.
func withWatchdog<R>(
  seconds: Double,
  onTimeout: @escaping @Sendable () -> Void,
  _ body: () async throws -> R
) async rethrows -> R {
  let deadline = DeferredDeadline()
  Task { deadline.register(after: seconds, onTimeout) }
  defer { deadline.cancel() }
  return try await body()
}

/// A deadline that is registered later, or never if it is cancelled first.
final class DeferredDeadline: Sendable {
  private struct State {
    var id: UInt64?
    var cancelled = false
  }

  private let state = Locked(State())

  /// Registers the deadline with ``Deadlines/shared`` unless it was cancelled.
  func register(after seconds: Double, _ action: @escaping @Sendable () -> Void) {
    guard !state.withLock({ $0.cancelled }) else { return }
    let id = Deadlines.shared.schedule(after: seconds, action)
    let cancelled = state.withLock { state -> Bool in
      state.id = id
      return state.cancelled
    }
    if cancelled { Deadlines.shared.cancel(id) }
  }

  /// Forgets the deadline, registered or not.
  func cancel() {
    let id = state.withLock { state -> UInt64? in
      state.cancelled = true
      return state.id
    }
    if let id { Deadlines.shared.cancel(id) }
  }
}
