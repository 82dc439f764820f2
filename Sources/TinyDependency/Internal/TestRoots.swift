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

  /// Replaces the running test's root, `old`, with `new`, for a `prepareDependencies` that
  /// chose a context; returns false when `old` is not the root it keeps for the test.
  static func replaceCurrentTestRoot(_ old: DependencyValues, with new: DependencyValues) -> Bool
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

}

extension DependencyValues {
  /// Creates an empty root container that belongs to a test: reads through it, and through the
  /// scopes derived from it, are seen by `scope`.
  package init(context: DependencyContext?, testScope: TestScope) {
    self.init(storage: DependencyStorage(context: context, testScope: testScope))
  }

  /// The test this container belongs to, if any.
  package var testScope: TestScope? { storage.testScope }

  /// Whether this container and `other` are the same, not copies that diverged.
  package func isSameContainer(as other: DependencyValues) -> Bool {
    storage === other.storage
  }
}

/// The life of one test's containers: which test they belong to, whether it ended, and which
/// of the overrides it set were read.
///
/// Every storage made for a test, and every storage derived from one, holds its test's scope.
/// Reads through such a storage skip the lock-free fast path and tell the scope, which is how a
/// read after the test ended (a leak) or an override that nothing read is seen. Storages of no
/// test (the process root, containers made by hand, scopes outside tests) have none and keep
/// the fast path.
///
/// Use is tracked per override, not per key: each value set is known by its box. An override
/// counts as used when a read returned it, or when an override set over it (in a scope derived
/// from the one it was set in) was read: that one took its place.
@usableFromInline
package final class TestScope: Sendable {
  /// One value set on one of the test's containers.
  private struct Override {
    let name: String
    let key: ObjectIdentifier
    /// Kept alive until the end, so that its identifier names this override alone.
    let box: AnyBox
    /// The override of the same key it was set over, if any.
    let replaced: ObjectIdentifier?
    var used = false
  }

  private struct State {
    var testName: String
    var strict: Bool
    var endedAt: Double?
    /// The overrides set on the test's containers, by box.
    var overrides: [ObjectIdentifier: Override] = [:]
    /// Keys already reported as read after the end: each is reported once.
    var reportedLate: Set<ObjectIdentifier> = []
    /// Live fallbacks built while traits applied their overrides, reported if strict mode turns
    /// on once they are done.
    var deferredFallbacks: [DeferredFallback] = []

    /// Removes and returns the deferred fallbacks of `key` or of values built from it.
    mutating func takeFallbacks(involving key: ObjectIdentifier) -> [String] {
      var taken: [String] = []
      deferredFallbacks.removeAll { fallback in
        guard fallback.keys.contains(key) else { return false }
        taken.append(fallback.message)
        return true
      }
      return taken
    }

    /// Marks `box`, an override of `key`, as read. A box the scope does not know (a copy that
    /// an escaped scope made) marks every override of the key, as nothing tells them apart.
    mutating func markUsed(_ box: AnyBox, of key: ObjectIdentifier) {
      let id = ObjectIdentifier(box)
      if overrides[id] != nil {
        overrides[id]?.used = true
        return
      }
      for (other, override) in overrides where override.key == key {
        overrides[other]?.used = true
      }
    }
  }

  private let state: Locked<State>

  /// What `prepareDependencies` prepared in the test: once per test.
  let preparation = PreparedRoot()

  /// Creates the scope of a test named `name`.
  package init(name: String, strict: Bool) {
    state = Locked(State(testName: name, strict: strict))
  }

  /// The test's name, as reports show it.
  package var name: String {
    get { state.withLock { $0.testName } }
    set { state.withLock { $0.testName = newValue } }
  }

  /// Whether reads after the end are issues rather than warnings, and overrides that no read
  /// used are reported at the end.
  package var isStrict: Bool { state.withLock { $0.strict } }

  /// Turns strict mode on, for a trait or helper inside the one that made the test's container.
  package func makeStrict() {
    state.withLock { $0.strict = true }
  }

  /// Whether the test ended.
  package var hasEnded: Bool { state.withLock { $0.endedAt != nil } }

  /// Records that `Key` was overridden with `box` in one of the test's containers, over
  /// `replaced`, the override the container saw before.
  func noteOverride<Key: DependencyKey>(_ key: Key.Type, box: AnyBox, replacing replaced: AnyBox?) {
    let name = Key.debugName
    state.withLock { state in
      guard state.endedAt == nil else { return }
      let replacedID = replaced.map { ObjectIdentifier($0) }
      state.overrides[ObjectIdentifier(box)] = Override(
        name: name,
        key: ObjectIdentifier(key),
        box: box,
        replaced: replacedID.flatMap { state.overrides[$0] == nil ? nil : $0 }
      )
    }
  }

  /// Sees a read of `Key` through one of the test's containers; `override` is the box it
  /// returned when that was an override. A read after the end is reported once per key.
  func noteRead<Key: DependencyKey>(_ key: Key.Type, override: AnyBox?) {
    let id = ObjectIdentifier(key)
    let outcome: ReadOutcome = state.withLock { state in
      guard let endedAt = state.endedAt else {
        if let override {
          state.markUsed(override, of: id)
          return .none
        }
        // A trait's own reads wait: strict mode reports what the test reads.
        guard state.strict, !state.deferredFallbacks.isEmpty,
          IssueReporter.deferringFallbacks.get() == nil
        else { return .none }
        return .fallbacks(state.takeFallbacks(involving: id))
      }
      guard state.reportedLate.insert(id).inserted else { return .none }
      return .late(SystemInterface.monotonicSeconds() - endedAt)
    }
    switch outcome {
    case .none:
      return
    case .fallbacks(let messages):
      for message in messages { IssueReporter.report(message) }
    case .late(let late):
      reportLateRead(of: key, late: late)
    }
  }

  /// Reports a read of `Key` `late` seconds after the test ended.
  private func reportLateRead<Key: DependencyKey>(of key: Key.Type, late: Double) {
    let milliseconds = (late * 100_000).rounded(.down) / 100
    let message =
      "\(Key.debugName) was read through the dependencies of test \(name) \(milliseconds) ms "
      + "after it ended: something the test started (a Task it did not await, a callback, an "
      + "object that kept its scope) outlived it. Await that work before the test returns, or "
      + "cancel it."
    if TestRoots.provider?.reportLateRead(message, strict: isStrict) == true { return }
    // Outside tests, or where the test can't take it, a warning is all there is.
    SystemInterface.writeToStandardError("TinyDependency: " + message)
  }

  /// Keeps the report of a live fallback built while a trait applied its overrides, until the
  /// test, in strict mode, reads the value or a value built from it.
  func deferFallback(_ fallback: DeferredFallback) {
    state.withLock { state in
      guard state.endedAt == nil else { return }
      state.deferredFallbacks.append(fallback)
    }
  }

  /// Ends the test: later reads through its containers are reported. Returns, sorted, the
  /// names of the keys the test overrode with a value that no read used.
  @discardableResult
  package func end() -> [String] {
    state.withLock { state in
      state.endedAt = SystemInterface.monotonicSeconds()
      var excused: Set<ObjectIdentifier> = []
      for override in state.overrides.values where override.used {
        var next = override.replaced
        while let id = next, excused.insert(id).inserted {
          next = state.overrides[id]?.replaced
        }
      }
      let unused = state.overrides.filter { !$0.value.used && !excused.contains($0.key) }
      let names = Set(unused.values.map(\.name)).sorted()
      state.overrides.removeAll()
      state.deferredFallbacks.removeAll()
      return names
    }
  }
}

/// What a read through a test's container has to report.
private enum ReadOutcome {
  case none
  case late(Double)
  case fallbacks([String])
}

/// A live fallback's report, kept while a trait applies its overrides: the keys it is about
/// (the key, then the keys whose builds read it) and the message.
struct DeferredFallback: Sendable {
  let keys: [ObjectIdentifier]
  let message: String
}
