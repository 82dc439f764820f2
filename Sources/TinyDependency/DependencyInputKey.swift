/// A key whose value has no default: the container must be given it.
///
/// Some values only the app knows, such as a server's base URL or the signed-in user. Declare
/// them as inputs; reading one that nothing set stops with a message that names the key and
/// how to set it, rather than running with a made-up value.
///
/// ```swift
/// enum BaseURLKey: DependencyInputKey {
///   typealias Value = String
/// }
///
/// var values = DependencyValues()
/// values[BaseURLKey.self] = "https://api.example.com"
/// ```
///
/// A key may still declare a ``DependencyKey/testValue`` or ``DependencyKey/previewValue``;
/// only the contexts without one need the input. ``DependencyValues/unsetInputs(among:)`` lists
/// the inputs a container lacks before anything reads them.
public protocol DependencyInputKey: DependencyKey {}

extension DependencyInputKey {
  /// Stops with a message naming the key and how to set it: an input has no default.
  public static var defaultValue: Value { missingInput(Self.self) }

  /// Inputs are built once per container, like shared keys, when a context declares a value.
  public static var lifetime: DependencyLifetime { .input }
}

/// Stops because `key` is an input that nothing set; while tracing, records it instead.
func missingInput<Key: DependencyKey>(_ key: Key.Type) -> Never {
  let frame = BuildFrame.running
  if let frame, let observer = frame.observer, observer.tracesStops {
    // The frame is the input's own (failed) build; what read it is its parent.
    frame.parent?.record(Key.self, inputs: [])
    frame.parent?.recordUnfinishedChain()
    observer.stop(missingInput: key)
  }
  let name = Key.debugName
  let message = """
    TinyDependency: \(name) is an input with no default value, and nothing set it in the \
    \(DependencyValues.current.context) context.
    Set it before it is read: for a scope, `withDependencies { $0[\(name).self] = … } operation: \
    { … }` (or through the property registered for it); on a container, \
    `values[\(name).self] = …`. `DependencyValues.unsetInputs(among:)` lists the inputs a \
    container still lacks.
    """
  stopWithMessage(message)
}

extension DependencyValues {
  /// The keys among `keys` that are inputs (``DependencyInputKey``) and have no value here.
  ///
  /// Nothing is read or built, so an app or a test can check its inputs before it runs:
  ///
  /// ```swift
  /// let missing = values.unsetInputs(among: [BaseURLKey.self, UserKey.self])
  /// precondition(missing.isEmpty, "set \(missing) first")
  /// ```
  ///
  /// An input counts as set once a value is set for it (on this container, a scope it derives
  /// from, or with ``prepareDependencies(fileID:filePath:line:column:_:)`` for the process root
  /// and its scopes), and as unset until then, even if its key declares a value
  /// for this container's context: which values a key declares is not visible without running
  /// them. TinyDependencyGraph's `DependencyGraph.trace(_:context:configure:)` shows the inputs
  /// a resolution actually missed.
  ///
  /// - Parameter keys: The keys to check, such as every key the app registers.
  /// - Returns: The unset inputs, in the order given.
  public func unsetInputs(among keys: [any DependencyKey.Type]) -> [any DependencyKey.Type] {
    keys.filter { (key: any DependencyKey.Type) -> Bool in
      let id = ObjectIdentifier(key)
      guard key.lifetime == .input, storage.overrides[id] == nil else { return false }
      return !seesPreparedValue(of: id)
    }
  }
}
