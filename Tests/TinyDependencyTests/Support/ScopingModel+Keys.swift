import TinyDependency

// The keys of the scoping model (ScopingModelTests), and objects that read them through
// `@Dependency`.

// MARK: - Keys

/// A plain key the sequences override.
private enum ModelKeyA: DependencyKey {
  static let defaultValue = "a0"
}

/// A plain key the sequences override.
private enum ModelKeyB: DependencyKey {
  static let defaultValue = "b0"
}

/// A plain key the sequences override.
private enum ModelKeyC: DependencyKey {
  static let defaultValue = "c0"
}

/// A value built from A and B, so that overrides also reach it through a build.
private enum ModelKeyD: DependencyKey {
  static var defaultValue: String {
    let values = DependencyValues.current
    return "d(\(values.modelA),\(values.modelB))"
  }
}

/// A value built from D and C: a build that reads another build.
private enum ModelKeyE: DependencyKey {
  static var defaultValue: String {
    let values = DependencyValues.current
    return "e(\(values.modelD),\(values.modelC))"
  }
}

/// An object as a key's value: built with no key read, it captures the scope that builds it.
private enum ModelKeyReader: DependencyKey {
  static var defaultValue: ModelLiteralReader { ModelLiteralReader() }
}

/// A value that holds an object it read while being built: the object captured the scope.
private enum ModelKeyOuter: DependencyKey {
  static var defaultValue: ModelOuter { ModelOuter(inner: DependencyValues.current.modelReader) }
}

struct ModelOuter: Sendable {
  let inner: ModelLiteralReader
}

/// A value that holds the scope it was built in, escaped.
private enum ModelKeyEscaper: DependencyKey {
  static var defaultValue: DependencyValues.Continuation { withEscapedDependencies { $0 } }
}

/// A value that keeps the container of its build, and reads from it later.
private enum ModelKeyHolder: DependencyKey {
  static var defaultValue: ModelHolder { ModelHolder(values: DependencyValues.current) }
}

struct ModelHolder: Sendable {
  let values: DependencyValues
}

/// A value built from containers made inside its build: a fresh one read directly, a fresh one
/// bound, and the current one. Only the last depends on the scope.
private enum ModelKeyFresh: DependencyKey {
  static var defaultValue: String {
    let fresh = DependencyValues(context: .test).modelE
    let bound = withDependencies(DependencyValues(context: .test)) {
      DependencyValues.current.modelD
    }
    return "\(fresh)|\(bound)|\(DependencyValues.current.modelA)"
  }
}

extension DependencyValues {
  var modelHolder: ModelHolder {
    get { self[ModelKeyHolder.self] }
    set { self[ModelKeyHolder.self] = newValue }
  }
  var modelFresh: String {
    get { self[ModelKeyFresh.self] }
    set { self[ModelKeyFresh.self] = newValue }
  }
  var modelOuter: ModelOuter {
    get { self[ModelKeyOuter.self] }
    set { self[ModelKeyOuter.self] = newValue }
  }
  var modelEscaper: DependencyValues.Continuation {
    get { self[ModelKeyEscaper.self] }
    set { self[ModelKeyEscaper.self] = newValue }
  }
  var modelA: String {
    get { self[ModelKeyA.self] }
    set { self[ModelKeyA.self] = newValue }
  }
  var modelB: String {
    get { self[ModelKeyB.self] }
    set { self[ModelKeyB.self] = newValue }
  }
  var modelC: String {
    get { self[ModelKeyC.self] }
    set { self[ModelKeyC.self] = newValue }
  }
  var modelD: String {
    get { self[ModelKeyD.self] }
    set { self[ModelKeyD.self] = newValue }
  }
  var modelE: String {
    get { self[ModelKeyE.self] }
    set { self[ModelKeyE.self] = newValue }
  }
  var modelReader: ModelLiteralReader {
    get { self[ModelKeyReader.self] }
    set { self[ModelKeyReader.self] = newValue }
  }

  /// The registered property for `key`.
  subscript(model key: ModelScopeKey) -> String {
    get { self[keyPath: key.keyPath] }
    set { self[keyPath: key.writableKeyPath] = newValue }
  }
}

/// The keys of the model, with their names as the model writes them.
enum ModelScopeKey: Int, CaseIterable, CustomStringConvertible {
  case a
  case b
  case c
  case d
  case e

  var description: String {
    switch self {
    case .a: "a"
    case .b: "b"
    case .c: "c"
    case .d: "d"
    case .e: "e"
    }
  }

  var writableKeyPath: WritableKeyPath<DependencyValues, String> {
    switch self {
    case .a: \.modelA
    case .b: \.modelB
    case .c: \.modelC
    case .d: \.modelD
    case .e: \.modelE
    }
  }

  var keyPath: KeyPath<DependencyValues, String> { writableKeyPath }
}

// MARK: - Objects that capture their scope

/// Something made in a scope that reads every key through `@Dependency`.
protocol ModelObject: Sendable {
  func read(_ key: ModelScopeKey) -> String
}

/// Made with key path literals, the form most code uses.
struct ModelLiteralReader: ModelObject {
  @Dependency(\.modelA) var a
  @Dependency(\.modelB) var b
  @Dependency(\.modelC) var c
  @Dependency(\.modelD) var d
  @Dependency(\.modelE) var e

  func read(_ key: ModelScopeKey) -> String {
    switch key {
    case .a: a
    case .b: b
    case .c: c
    case .d: d
    case .e: e
    }
  }
}

/// Made with key types.
struct ModelKeyTypeReader: ModelObject {
  @Dependency(ModelKeyA.self) var a
  @Dependency(ModelKeyB.self) var b
  @Dependency(ModelKeyC.self) var c
  @Dependency(ModelKeyD.self) var d
  @Dependency(ModelKeyE.self) var e

  func read(_ key: ModelScopeKey) -> String {
    switch key {
    case .a: a
    case .b: b
    case .c: c
    case .d: d
    case .e: e
    }
  }
}

/// Made with key path values held in variables.
struct ModelKeyPathReader: ModelObject {
  let dependencies: [Dependency<String>] = ModelScopeKey.allCases.map { Dependency($0.keyPath) }

  func read(_ key: ModelScopeKey) -> String {
    dependencies[key.rawValue].wrappedValue
  }
}
