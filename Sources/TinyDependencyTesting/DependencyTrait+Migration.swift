public import Testing
public import TinyDependency

extension Trait where Self == DependencyTrait {
  /// Runs each test case with a fresh container in which a type that is its own key is set.
  ///
  /// ```swift
  /// @Test(.dependency(APIClient.mock))
  /// ```
  ///
  /// `value` is evaluated anew for each test case; an error it throws is recorded as an issue of
  /// the test case that names the type, and the test's body does not run.
  ///
  /// - Parameter value: The value to use, made for each test case.
  public static func dependency<Value: TestDependencyKey>(
    _ value: @autoclosure @escaping @Sendable () throws -> Value
  ) -> Self where Value.Value == Value {
    DependencyTrait(update: update(applying: OwnKeySetter<Value>(make: value)), strict: nil)
  }
}

/// Sets a type that is its own key.
struct OwnKeySetter<Value: TestDependencyKey>: ValueSetter where Value.Value == Value {
  let make: @Sendable () throws -> Value

  func apply(to values: inout DependencyValues) throws {
    do {
      values[Value.self] = try make()
    } catch {
      throw DependencyTrait.ValueFailure(key: _typeName(Value.self, qualified: false), error: error)
    }
  }
}
