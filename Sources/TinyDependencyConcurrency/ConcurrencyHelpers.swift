import TinyDependency

/// A value behind a lock, shared between threads: for test doubles that record what they saw.
///
/// ```swift
/// let events = LockIsolated<[String]>([])
/// let analytics = Analytics(track: { event in events.withValue { $0.append(event) } })
/// // …
/// #expect(events.value == ["signed in"])
/// ```
///
/// The lock is never held while code other than the closure given to ``withValue(_:)`` runs.
/// It is recursive, as swift-dependencies' is: on the thread that holds it, the closure may use
/// the box again (read ``value``, a property, or call ``withValue(_:)`` inside it). The closure
/// works on a copy that is written back when it returns, so a nested call sees the value as it
/// was before the outer closure began, and what a nested call writes is replaced by the outer
/// closure's copy. Other threads wait while a closure runs.
///
/// Beside it: ``ActorIsolated`` keeps its value on an actor of its own, for asynchronous code
/// (each `await` on it is one step of the actor, and its ``ActorIsolated/withValue(_:)`` may
/// not await); ``UncheckedSendable`` locks nothing and checks nothing.
@dynamicMemberLookup
public final class LockIsolated<Value>: @unchecked Sendable {
  // `@unchecked Sendable`: `value` is read and written only with the lock of `locked` held.
  private let locked: Locked<Value>

  /// Creates the box with its first value.
  ///
  /// - Parameter value: The first value.
  public init(_ value: @autoclosure @Sendable () throws -> Value) rethrows {
    locked = Locked(try value(), recursive: true)
  }

  /// The current value, read with the lock held.
  public var value: Value { locked.withLock { $0 } }

  /// Reads a property of the current value.
  public subscript<Subject: Sendable>(dynamicMember keyPath: KeyPath<Value, Subject>) -> Subject {
    locked.withLock { $0[keyPath: keyPath] }
  }

  /// Reads or changes the value with the lock held, and returns what `operation` returns.
  ///
  /// - Parameter operation: Works on a copy of the value, written back when it returns (also
  ///   when it throws); it may use this box again on the same thread.
  /// - Returns: The value `operation` returns.
  /// - Throws: What `operation` throws.
  public func withValue<T: Sendable>(
    _ operation: @Sendable (inout Value) throws -> T
  ) rethrows -> T {
    try locked.holding {
      var copy = locked.withLock { $0 }
      defer { locked.withLock { $0 = copy } }
      return try operation(&copy)
    }
  }

  /// Replaces the value.
  ///
  /// - Parameter newValue: The new value.
  public func setValue(_ newValue: @autoclosure @Sendable () throws -> Value) rethrows {
    let made = try newValue()
    locked.withLock { $0 = made }
  }
}

/// A value isolated to an actor of its own, for state that asynchronous code shares.
///
/// Every access is a step of the actor: no lock, and no thread waits. Its ``withValue(_:)``
/// runs synchronously on the actor, so the value cannot change while it runs.
///
/// ```swift
/// let count = ActorIsolated(0)
/// await count.withValue { $0 += 1 }
/// #expect(await count.value == 1)
/// ```
public final actor ActorIsolated<Value> {
  /// The current value.
  public var value: Value

  /// Creates the actor with its first value.
  ///
  /// - Parameter value: The first value.
  public init(_ value: @autoclosure @Sendable () throws -> Value) rethrows {
    self.value = try value()
  }

  /// Reads or changes the value on the actor, and returns what `operation` returns.
  ///
  /// - Parameter operation: Works on the value.
  /// - Returns: The value `operation` returns.
  /// - Throws: What `operation` throws.
  public func withValue<T: Sendable>(
    _ operation: @Sendable (inout Value) throws -> T
  ) rethrows -> T {
    try operation(&value)
  }

  /// Replaces the value.
  ///
  /// - Parameter newValue: The new value.
  public func setValue(_ newValue: @autoclosure @Sendable () throws -> Value) rethrows {
    value = try newValue()
  }
}

/// A value declared `Sendable` by its user, who promises that it is used safely.
///
/// ```swift
/// let formatter = UncheckedSendable(NumberFormatter())
/// ```
///
/// It locks nothing and the compiler checks nothing: use it for a value that is never changed
/// from two threads at once, or that guards itself.
@dynamicMemberLookup
@propertyWrapper
public struct UncheckedSendable<Value>: @unchecked Sendable {
  /// The wrapped value.
  public var value: Value

  /// Wraps a value.
  ///
  /// - Parameter value: The value to declare `Sendable`.
  public init(_ value: Value) {
    self.value = value
  }

  /// Wraps a value, as a property wrapper.
  ///
  /// - Parameter wrappedValue: The value to declare `Sendable`.
  public init(wrappedValue: Value) {
    self.value = wrappedValue
  }

  /// The wrapped value.
  public var wrappedValue: Value {
    get { value }
    set { value = newValue }
  }

  /// The wrapper itself, to pass it on as `Sendable`.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }

  /// Reads a property of the wrapped value.
  public subscript<Subject>(dynamicMember keyPath: KeyPath<Value, Subject>) -> Subject {
    value[keyPath: keyPath]
  }

  /// Reads or changes a property of the wrapped value.
  public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Subject {
    get { value[keyPath: keyPath] }
    set { value[keyPath: keyPath] = newValue }
  }
}
