public import Testing
public import TinyDependency

extension Trait where Self == DependencyTrait {
  /// Runs each test case with a fresh container in which a type that is its own key is set.
  ///
  /// ```swift
  /// @Test(.dependency(APIClient.mock))
  /// ```
  ///
  /// `value` is evaluated anew for each test case; an error it throws fails the test case.
  ///
  /// - Parameter value: The value to use, made for each test case.
  public static func dependency<Value: TestDependencyKey>(
    _ value: @autoclosure @escaping @Sendable () throws -> Value
  ) -> Self where Value.Value == Value {
    DependencyTrait(update: update(applying: OwnKeySetter<Value>(make: value)), strict: nil)
  }
}

/// Sets a type that is its own key.
struct OwnKeySetter<Value: TestDependencyKey>: Sendable where Value.Value == Value {
  let make: @Sendable () throws -> Value

  func apply(to values: inout DependencyValues) throws {
    values[Value.self] = try make()
  }
}

/// An update closure that applies `setter`; made outside the generic context of the trait.
func update<Value>(applying setter: OwnKeySetter<Value>)
  -> @Sendable (inout DependencyValues) throws -> Void
{
  { try setter.apply(to: &$0) }
}
