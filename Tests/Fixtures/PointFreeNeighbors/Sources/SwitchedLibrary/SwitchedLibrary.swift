// A library shaped like swift-sharing, switched from swift-dependencies as the migration guide's
// "Switching a library" says: `import Dependencies` became `import TinyDependencyFace`; its keys
// keep `liveValue`; it keeps importing IssueReporting and ConcurrencyExtras itself.
import ConcurrencyExtras
import IssueReporting
import TinyDependencyFace

/// A store of integers by key, as swift-sharing's `defaultAppStorage` is a `UserDefaults`.
public final class IntegerStore: @unchecked Sendable {
  // `@unchecked Sendable`: `values` is read and written only inside `LockIsolated`.
  private let values = LockIsolated<[String: Int]>([:])

  /// Creates an empty store.
  public init() {}

  /// The value stored for `key`.
  public subscript(key: String) -> Int? { values.value[key] }

  /// Stores `value` for `key`.
  public func set(_ value: Int, for key: String) {
    values.withValue { $0[key] = value }
  }
}

private enum DefaultStoreKey: DependencyKey {
  static var liveValue: IntegerStore { IntegerStore() }
  static var testValue: IntegerStore { IntegerStore() }
}

extension DependencyValues {
  /// The store that `SharedCount` reads and writes.
  public var defaultStore: IntegerStore {
    get { self[DefaultStoreKey.self] }
    set { self[DefaultStoreKey.self] = newValue }
  }
}

/// A count shared through the store, as swift-sharing's `@Shared(.appStorage("count"))`.
public struct SharedCount: Sendable {
  @Dependency(\.defaultStore) private var store
  private let key: String

  /// Shares the count stored under `key`; an empty key is reported, as swift-sharing reports a
  /// misuse, through IssueReporting.
  public init(_ key: String) {
    if key.isEmpty {
      reportIssue("A shared key must not be empty.")
    }
    self.key = key
  }

  /// The count, zero until it is stored.
  public var value: Int { store[key] ?? 0 }

  /// Adds one to the stored count.
  public func increment() {
    store.set(value + 1, for: key)
  }
}

/// Whether the library runs in tests, by IssueReporting's `isTesting`, as swift-sharing decides.
public var runsInTests: Bool { isTesting }

/// A non-`Sendable` observer carried across isolation as swift-sharing does.
public func observerBox() -> String {
  final class Observer { var calls = 0 }
  let box = UncheckedSendable(Observer())
  box.value.calls += 1
  return String(String(reflecting: type(of: box)).prefix { $0 != "<" })
}
