#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A hook through which the core asks a test runner for the current test's root container; for
/// TinyDependencyTesting.
///
/// The core finds TinyDependencyTesting's router by name at run time (see
/// `DependencyIssueRouting`). When it also conforms to this protocol, a read with nothing bound
/// asks it for the running test's root container instead of using the process-wide one.
/// `package`: only TinyDependencyTesting conforms.
package protocol DependencyTestRootProviding {
  /// The root container of the test running in the calling task or thread, if there is one.
  static func currentTestRoot() -> DependencyValues?

  /// The name of the test running in the calling task or thread, if there is one.
  static func currentTestName() -> String?

  /// Reports a read made through a test's container after that test ended; returns whether it
  /// was recorded by a test (it goes to standard error otherwise).
  static func reportLateRead(_ message: String, strict: Bool) -> Bool
}

/// The per-test roots seen from the core: where a read with nothing bound goes.
@usableFromInline
package enum TestRoots {
  /// TinyDependencyTesting's router, when it is linked; looked up once.
  ///
  /// `nonisolated(unsafe)`: a metatype is immutable, and the router only has static methods
  /// that are safe to call from any thread.
  nonisolated(unsafe) static let provider: (any DependencyTestRootProviding.Type)? =
    IssueReporter.router as? any DependencyTestRootProviding.Type

  /// The container of a read with nothing bound, in a process where TinyDependencyTesting is
  /// linked: the running test's root, or the process root outside tests.
  @usableFromInline @inline(never)
  static func unboundValues() -> DependencyValues {
    provider?.currentTestRoot() ?? DependencyValues.processRoot
  }

  /// Nanoseconds of a monotonic clock.
  static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }
}

extension DependencyValues {
  /// Creates an empty root container that belongs to a test: reads through it, and through the
  /// scopes derived from it, are seen by `scope`.
  package init(context: DependencyContext?, testScope: TestScope) {
    self.init(storage: DependencyStorage(context: context, testScope: testScope))
  }

  /// The test this container belongs to, if any.
  package var testScope: TestScope? { storage.testScope }
}

/// The life of one test's containers: which test they belong to, whether it ended, and (when
/// asked) which of the overrides it set were read.
///
/// Every storage made for a test, and every storage derived from one, holds its test's scope.
/// Reads through such a storage skip the lock-free fast path and tell the scope, which is how a
/// read after the test ended (a leak) or an override that nothing read is seen. Storages of no
/// test (the process root, containers made by hand, scopes outside tests) have none and keep
/// the fast path.
///
@usableFromInline
package final class TestScope: Sendable {
  private struct State {
    var testName: String
    var strict: Bool
    var endedAt: UInt64?
    /// Overrides set on the test's containers, by key, with the key's name.
    var overridden: [ObjectIdentifier: String] = [:]
    /// Overrides that a read returned.
    var used: Set<ObjectIdentifier> = []
    /// Keys already reported as read after the end: each is reported once.
    var reportedLate: Set<ObjectIdentifier> = []
  }

  private let state: Locked<State>

  /// Creates the scope of a test named `name`.
  package init(name: String, strict: Bool) {
    state = Locked(State(testName: name, strict: strict))
  }

  /// The test's name, as reports show it.
  package var name: String {
    get { state.withLock { $0.testName } }
    set { state.withLock { $0.testName = newValue } }
  }

  /// Whether reads after the end are issues rather than warnings, and the test's reads of
  /// overrides are recorded, so that those no read used can be reported.
  package var isStrict: Bool { state.withLock { $0.strict } }

  /// Turns strict mode on, for a trait or helper inside the one that made the test's container.
  package func makeStrict() {
    state.withLock { $0.strict = true }
  }

  /// Whether the test ended.
  package var hasEnded: Bool { state.withLock { $0.endedAt != nil } }

  /// Records that `Key` was overridden in one of the test's containers.
  func noteOverride<Key: DependencyKey>(_ key: Key.Type) {
    let name = Key.debugName
    state.withLock { state in
      guard state.endedAt == nil else { return }
      state.overridden[ObjectIdentifier(key)] = name
    }
  }

  /// Forgets which overrides were read so far: the reads a trait made while it set them up are
  /// not the test's.
  package func forgetReads() {
    state.withLock { $0.used.removeAll() }
  }

  /// Sees a read of `Key` through one of the test's containers; `isOverride` when it returned an
  /// override. A read after the end is reported once per key.
  func noteRead<Key: DependencyKey>(_ key: Key.Type, isOverride: Bool) {
    let id = ObjectIdentifier(key)
    let late: UInt64? = state.withLock { state in
      guard let endedAt = state.endedAt else {
        if isOverride && state.strict { state.used.insert(id) }
        return nil
      }
      guard state.reportedLate.insert(id).inserted else { return nil }
      return TestRoots.now() &- endedAt
    }
    guard let late else { return }
    let milliseconds = Double(late / 10_000) / 100
    let message =
      "\(Key.debugName) was read through the dependencies of test \(name) \(milliseconds) ms "
      + "after it ended: something the test started (a Task it did not await, a callback, an "
      + "object that kept its scope) outlived it. Await that work before the test returns, or "
      + "cancel it."
    if TestRoots.provider?.reportLateRead(message, strict: isStrict) == true { return }
    // Outside tests, or where the test can't take it, a warning is all there is.
    SystemInterface.writeToStandardError("TinyDependency: " + message)
  }

  /// Ends the test: later reads through its containers are reported. Returns, sorted, the
  /// names of the keys the test overrode that no read used (recorded in strict mode only).
  @discardableResult
  package func end() -> [String] {
    state.withLock { state in
      state.endedAt = TestRoots.now()
      return state.overridden.filter { !state.used.contains($0.key) }.map(\.value).sorted()
    }
  }
}
