import TinyDependency

/// A clock whose time moves only when a test moves it.
///
/// Code under test sleeps on the clock; the test moves time with ``advance(by:)``,
/// ``advance(to:)`` or ``run(timeout:fileID:filePath:line:column:)`` and checks what happened:
///
/// ```swift
/// let clock = TestClock()
/// let ticks = Ticks()
/// let task = Task {
///   for await _ in clock.timer(interval: .seconds(1)) { ticks.increment() }
/// }
/// await clock.advance(by: .seconds(3))
/// // ticks.count == 3
/// task.cancel()
/// ```
///
/// ## What the clock guarantees
///
/// - A sleep always suspends until the test moves time, even with a deadline already passed;
///   ``advance(by:)`` with no argument (by zero) releases those.
/// - `advance` releases the sleepers whose deadlines it reaches one at a time, in deadline
///   order (equal deadlines in the order they started sleeping); ``now`` is each sleeper's
///   deadline when it resumes, and the target when `advance` returns.
/// - Before it releases the next sleeper, `advance` waits until the sleep it released has
///   returned in the sleeper's own task (up to five seconds of real time, in case that task
///   can't run), then until that task sleeps on this clock again, for at most 20 ms of real
///   time. So the work between two sleeps on this clock, such as a timer loop's body, has
///   finished when `advance` returns, however loaded the machine is.
/// - A cancelled sleeper is removed at once and its sleep throws `CancellationError`.
/// - The clock's own waits never spin: they suspend until a sleep starts or returns, or until a
///   real-time timeout.
///
/// What it can't guarantee without private runtime API:
///
/// - That a released task which then finishes, or waits on something other than this clock,
///   has got there when `advance` returns: it gets 20 ms, which is usually but not always
///   enough on a loaded machine.
/// - That a task started just before `advance` has begun to sleep. `advance`, `run` and
///   ``checkSuspension()`` first wait until no sleep has started for 2 ms (and, while nothing
///   sleeps at all, for 20 ms); a task that the system keeps off the CPU longer than that
///   starts its sleep late, measured from the time it then reads. When a test needs
///   certainty, call ``waitForSleepers(_:timeout:fileID:filePath:line:column:)`` first.
///
/// `@unchecked Sendable`: all state is guarded by one lock, never held while other code runs.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public final class TestClock<Duration: DurationProtocol & Hashable>: Clock, @unchecked Sendable {
  /// A point in time of this clock: an offset from its start.
  public typealias Instant = ClockInstant<Duration>

  /// The error ``TestClock/checkSuspension()`` throws when a task is sleeping on the clock.
  public struct SuspensionError: Error, Sendable, CustomStringConvertible {
    /// How many sleeps were waiting.
    public let sleepers: Int

    /// What went wrong.
    public var description: String {
      "\(sleepers) \(sleepers == 1 ? "task is" : "tasks are") still sleeping on the TestClock"
    }
  }

  /// How much real time `advance` gives released work to reach its next sleep.
  static var settleTime: Swift.Duration { .milliseconds(20) }
  /// How long no sleep must start before `advance` considers started work asleep.
  static var quietTime: Swift.Duration { .milliseconds(2) }
  /// The longest `advance` waits, in real time, for a released sleep to return in its task.
  static var wakeTimeout: Swift.Duration { .seconds(5) }

  /// Everything the clock knows, behind one lock that is never held while other code runs.
  let state: Locked<State>

  /// The smallest interval the clock tells apart: zero.
  public var minimumResolution: Duration { .zero }

  /// The clock's current time, which only ``advance(by:)`` and its relatives move.
  public var now: Instant { state.withLock { $0.now } }

  /// Creates a test clock whose time starts at `now`.
  ///
  /// - Parameter now: The starting time.
  public init(now: Instant = .init()) {
    state = Locked(State(now: now))
  }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension TestClock where Duration == Swift.Duration {
  /// Creates a test clock measured in `Swift.Duration`, starting at zero.
  public convenience init() {
    self.init(now: .init())
  }
}
