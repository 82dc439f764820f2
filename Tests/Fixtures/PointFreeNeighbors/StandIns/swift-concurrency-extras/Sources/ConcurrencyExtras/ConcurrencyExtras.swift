// The signatures of ConcurrencyExtras' three types that TinyDependencyConcurrency also declares
// (without the real package's deprecation attributes, so the fixture builds warning-free). The
// fixture's check tells them apart by module name; a plain lock-free body is enough for it.

/// A value behind a lock.
@dynamicMemberLookup
public final class LockIsolated<Value>: @unchecked Sendable {
  private var _value: Value

  /// Wraps a value.
  public init(_ value: @autoclosure @Sendable () throws -> Value) rethrows {
    _value = try value()
  }

  /// Reads a property of the value.
  public subscript<Subject: Sendable>(dynamicMember keyPath: KeyPath<Value, Subject>) -> Subject {
    _value[keyPath: keyPath]
  }

  /// Works on the value.
  public func withValue<T: Sendable>(
    _ operation: @Sendable (inout Value) throws -> T
  ) rethrows -> T {
    try operation(&_value)
  }

  /// Replaces the value.
  public func setValue(_ newValue: @autoclosure @Sendable () throws -> Value) rethrows {
    _value = try newValue()
  }

  /// The value.
  public var value: Value { _value }
}

/// A value isolated to an actor.
public final actor ActorIsolated<Value> {
  /// The value.
  public var value: Value

  /// Wraps a value.
  public init(_ value: @autoclosure @Sendable () throws -> Value) rethrows {
    self.value = try value()
  }

  /// Works on the value.
  public func withValue<T>(
    _ operation: @Sendable (inout Value) throws -> T
  ) rethrows -> T {
    try operation(&value)
  }

  /// Replaces the value.
  public func setValue(_ newValue: @autoclosure @Sendable () throws -> Value) rethrows {
    value = try newValue()
  }
}

/// A value declared sendable by its user.
@dynamicMemberLookup
@propertyWrapper
public struct UncheckedSendable<Value>: @unchecked Sendable {
  /// The value.
  public var value: Value

  /// Wraps a value.
  public init(_ value: Value) { self.value = value }

  /// Wraps a value, as a property wrapper.
  public init(wrappedValue: Value) { self.value = wrappedValue }

  /// The value.
  public var wrappedValue: Value {
    get { value }
    set { value = newValue }
  }

  /// The wrapper.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }

  /// Reads a property of the value.
  public subscript<Subject>(dynamicMember keyPath: KeyPath<Value, Subject>) -> Subject {
    value[keyPath: keyPath]
  }

  /// Reads or changes a property of the value.
  public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Subject {
    get { value[keyPath: keyPath] }
    set { value[keyPath: keyPath] = newValue }
  }
}
