import TinyDependency

/// The life of one test's containers: which test they belong to, whether it ended, and which
/// of the overrides it set were read. The core tells it of every override and read through the
/// test's containers (its `TestObserver` hook).
///
/// Use is tracked per override, not per key: each value set is known by its box. An override
/// counts as used when a read returned it, or when an override set over it (in a scope derived
/// from the one it was set in) was read: that one took its place.
final class TestScope: DependencyObserver {
  /// One value set on one of the test's containers.
  private struct Override {
    let name: String
    let key: ObjectIdentifier
    /// Kept alive until the end, so that its identifier names this override alone.
    let box: AnyObject
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
    var deferredFallbacks: [(keys: [ObjectIdentifier], message: String)] = []

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
    mutating func markUsed(_ box: AnyObject, of key: ObjectIdentifier) {
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
  /// What `prepareDependencies` prepared in the test: once per test, whichever root it has.
  let preparation = EntryPointRecord()

  /// Every read through the test's containers is told, to see reads after the end and unused
  /// overrides.
  var observesReads: Bool { true }

  /// The test's record of `prepareDependencies`; the only attachment a test keeps.
  func attachment<T: AnyObject & Sendable>(_ make: () -> T) -> T? { preparation as? T }

  /// Creates the scope of a test named `name`.
  init(name: String, strict: Bool) {
    state = Locked(State(testName: name, strict: strict))
  }

  /// The test's name, as reports show it.
  var name: String {
    get { state.withLock { $0.testName } }
    set { state.withLock { $0.testName = newValue } }
  }

  /// Whether reads after the end are issues rather than warnings, and overrides that no read
  /// used are reported at the end.
  var isStrict: Bool { state.withLock { $0.strict } }

  /// Turns strict mode on, for a trait or helper inside the one that made the test's container.
  func makeStrict() {
    state.withLock { $0.strict = true }
  }

  /// Whether the test ended.
  var hasEnded: Bool { state.withLock { $0.endedAt != nil } }

  /// Records that `Key` was overridden with `box` in one of the test's containers, over
  /// `replaced`, the override the container saw before.
  func didSetOverride(
    of key: any DependencyKey.Type,
    box: AnyObject,
    replacing replaced: AnyObject?
  ) {
    let name = KeyType(key).name
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
  func didRead(_ key: any DependencyKey.Type, override: AnyObject?) {
    let id = ObjectIdentifier(key)
    let outcome: ReadOutcome = state.withLock { state in
      guard let endedAt = state.endedAt else {
        if let override {
          state.markUsed(override, of: id)
          return .none
        }
        // A trait's own reads wait: strict mode reports what the test reads.
        guard state.strict, !state.deferredFallbacks.isEmpty,
          TestScope.deferringFallbacks.get() == nil
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
  private func reportLateRead(of key: any DependencyKey.Type, late: Double) {
    let milliseconds = (late * 100_000).rounded(.down) / 100
    let message =
      "\(KeyType(key).name) was read through the dependencies of test \(name) \(milliseconds) ms "
      + "after it ended: something the test started (a Task it did not await, a callback, an "
      + "object that kept its scope) outlived it. Await that work before the test returns, or "
      + "cancel it."
    if IssueRouter.reportLateRead(message, strict: isStrict) { return }
    // Outside tests, or where the test can't take it, a warning is all there is.
    SystemInterface.writeToStandardError("TinyDependency: " + message)
  }

  /// The test whose traits are applying their overrides on this task: strict mode's reports of
  /// live fallbacks built meanwhile wait there until strict mode is known.
  static let deferringFallbacks = TaskLocal<TestScope?>(wrappedValue: nil)

  /// Keeps the report of a live fallback built while a trait applied its overrides, until the
  /// test, in strict mode, reads the value or a value built from it.
  func deferFallback(keys: [ObjectIdentifier], message: String) {
    state.withLock { state in
      guard state.endedAt == nil else { return }
      state.deferredFallbacks.append((keys, message))
    }
  }

  /// Ends the test: later reads through its containers are reported. Returns, sorted, the
  /// names of the keys the test overrode with a value that no read used.
  @discardableResult
  func end() -> [String] {
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

extension DependencyValues {
  /// Creates an empty root container that belongs to the test `scope` watches.
  init(context: DependencyContext?, testScope scope: TestScope) {
    self.init(context: context, observer: scope)
  }

  /// The test this container belongs to, if any.
  var testScope: TestScope? { attachedObserver as? TestScope }
}
