import TinyDependency

/// Names the key that a property of `DependencyValues` reads, for messages: a key path to a
/// computed property prints no property name (`\DependencyValues.<computed 0x… (String)>`).
enum KeyPathNaming {
  /// The name of the key that `keyPath` reads first, or the key path's own description when it
  /// reads none.
  ///
  /// It reads the property on an empty container of the test context, as a write through the
  /// key path does on the test's own: the key's test value is built there once, then dropped.
  static func name<Value>(of keyPath: any KeyPath<DependencyValues, Value> & Sendable) -> String {
    let recorder = FirstRead()
    let probe = DependencyValues(context: .test, observer: recorder)
    IssueReporter.applyingOverrides.withValue(true) {
      IssueReporter.writingThroughKeyPath.withValue(true) { _ = probe[keyPath: keyPath] }
    }
    return recorder.key.map { KeyType($0).name } ?? "\(keyPath)"
  }

  /// Keeps the first key read through a container.
  private final class FirstRead: DependencyObserver {
    private let first = Locked<(any DependencyKey.Type)?>(nil)

    /// The first key read, if any.
    var key: (any DependencyKey.Type)? { first.withLock { $0 } }

    /// Every read is told, so that the first one is seen.
    var observesReads: Bool { true }

    func didRead(_ key: any DependencyKey.Type, override: AnyObject?) {
      first.withLock { if $0 == nil { $0 = key } }
    }
  }
}
