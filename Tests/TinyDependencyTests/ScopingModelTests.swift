import Testing
import TinyDependency

@Suite("Scoping against a reference model")
struct ScopingModelTests {
  /// Random sequences per test run, each with its own container.
  static let sequenceCount = 3_000

  // MARK: - The reference model on its own

  @Test func modelReadsTheInnermostOverrideElseTheDefault() {
    var model = ModelScopes()
    let outer = model.enter(ModelScopes.root, overriding: [(.a, "a1"), (.b, "b1")])
    let inner = model.enter(outer, overriding: [(.a, "a2")])
    #expect(model.value(.a, in: inner) == "a2")
    #expect(model.value(.b, in: inner) == "b1")
    #expect(model.value(.c, in: inner) == "c0")
    #expect(model.value(.d, in: inner) == "d(a2,b1)")
    #expect(model.value(.e, in: inner) == "e(d(a2,b1),c0)")
    #expect(model.value(.a, in: ModelScopes.root) == "a0")
  }

  @Test func modelLetsNewerOverridesOfTheCurrentScopeWin() {
    var model = ModelScopes()
    let made = model.enter(ModelScopes.root, overriding: [(.a, "made")])
    let later = model.enter(ModelScopes.root, overriding: [(.a, "later"), (.b, "b1")])
    let unrelated = model.enter(ModelScopes.root, overriding: [(.c, "c1")])
    #expect(model.value(.a, madeIn: made, readIn: later) == "later")
    #expect(model.value(.d, madeIn: made, readIn: later) == "d(later,b1)")
    #expect(model.value(.a, madeIn: made, readIn: unrelated) == "made")
    #expect(model.value(.c, madeIn: made, readIn: unrelated) == "c1")
    #expect(model.value(.e, madeIn: made, readIn: unrelated) == "e(d(made,b0),c1)")
  }

  @Test func modelKeepsTheCapturedOverrideOverAnEnclosingScope() {
    var model = ModelScopes()
    let enclosing = model.enter(ModelScopes.root, overriding: [(.a, "enclosing")])
    let made = model.enter(enclosing, overriding: [(.a, "inner")])
    let nested = model.enter(made, overriding: [(.b, "nested")])
    #expect(model.value(.a, madeIn: made, readIn: enclosing) == "inner")
    #expect(model.value(.a, madeIn: made, readIn: ModelScopes.root) == "inner")
    #expect(model.value(.a, madeIn: made, readIn: nested) == "inner")
    #expect(model.value(.b, madeIn: made, readIn: nested) == "nested")
    #expect(model.value(.b, madeIn: nested, readIn: made) == "nested")
  }

  // MARK: - The library against the model

  /// To replay a failure, run `ModelSequence(seed:)` with the seed its message prints.
  @Test func randomSequencesReadWhatTheModelPredicts() {
    var failedSequences = 0
    for index in 0..<Self.sequenceCount {
      let sequence = ModelSequence(seed: 0x5C0_9E00_0000 + UInt64(index))
      sequence.run()
      guard let failure = sequence.failure else { continue }
      Issue.record("\(failure)")
      failedSequences += 1
      if failedSequences == 5 { break }
    }
  }

  // MARK: - Values that hold wrappers

  /// An object that is a key's value, read through `DependencyValues.current`, is made in the
  /// scope it is read in, so by the model it reads that scope's values. Its build read no key,
  /// but it captured its scope, so the library must not share it with the scopes around that
  /// one: the first scope's override of `a` would leak into the root and a sibling scope.
  @Test func objectBuiltAsAValueReadsTheScopeItIsReadIn() {
    var model = ModelScopes()
    let first = model.enter(ModelScopes.root, overriding: [(.a, "first")])
    let sibling = model.enter(ModelScopes.root, overriding: [(.b, "sibling")])
    withDependencies(DependencyValues(context: .test)) {
      withDependencies {
        $0.modelA = "first"
      } operation: {
        #expect(DependencyValues.current.modelReader.read(.a) == model.value(.a, in: first))
      }
      withDependencies {
        $0.modelB = "sibling"
      } operation: {
        #expect(DependencyValues.current.modelReader.read(.a) == model.value(.a, in: sibling))
      }
      let root = ModelScopes.root
      #expect(DependencyValues.current.modelReader.read(.a) == model.value(.a, in: root))
    }
  }
}

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

private struct ModelOuter: Sendable {
  let inner: ModelLiteralReader
}

/// A value that holds the scope it was built in, escaped.
private enum ModelKeyEscaper: DependencyKey {
  static var defaultValue: DependencyValues.Continuation { withEscapedDependencies { $0 } }
}

extension DependencyValues {
  fileprivate var modelOuter: ModelOuter {
    get { self[ModelKeyOuter.self] }
    set { self[ModelKeyOuter.self] = newValue }
  }
  fileprivate var modelEscaper: DependencyValues.Continuation {
    get { self[ModelKeyEscaper.self] }
    set { self[ModelKeyEscaper.self] = newValue }
  }
  fileprivate var modelA: String {
    get { self[ModelKeyA.self] }
    set { self[ModelKeyA.self] = newValue }
  }
  fileprivate var modelB: String {
    get { self[ModelKeyB.self] }
    set { self[ModelKeyB.self] = newValue }
  }
  fileprivate var modelC: String {
    get { self[ModelKeyC.self] }
    set { self[ModelKeyC.self] = newValue }
  }
  fileprivate var modelD: String {
    get { self[ModelKeyD.self] }
    set { self[ModelKeyD.self] = newValue }
  }
  fileprivate var modelE: String {
    get { self[ModelKeyE.self] }
    set { self[ModelKeyE.self] = newValue }
  }
  fileprivate var modelReader: ModelLiteralReader {
    get { self[ModelKeyReader.self] }
    set { self[ModelKeyReader.self] = newValue }
  }

  /// The registered property for `key`.
  fileprivate subscript(model key: ModelScopeKey) -> String {
    get { self[keyPath: key.keyPath] }
    set { self[keyPath: key.writableKeyPath] = newValue }
  }
}

/// The keys of the model, with their names as the model writes them.
private enum ModelScopeKey: Int, CaseIterable, CustomStringConvertible {
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
private protocol ModelObject: Sendable {
  func read(_ key: ModelScopeKey) -> String
}

/// Made with key path literals, the form most code uses.
private struct ModelLiteralReader: ModelObject {
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
private struct ModelKeyTypeReader: ModelObject {
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
private struct ModelKeyPathReader: ModelObject {
  let dependencies: [Dependency<String>] = ModelScopeKey.allCases.map { Dependency($0.keyPath) }

  func read(_ key: ModelScopeKey) -> String {
    dependencies[key.rawValue].wrappedValue
  }
}

// MARK: - The reference model

/// The scoping rules, written to be obviously right rather than fast.
///
/// A scope is its overrides and its parent; scope 0 is the root, a container with nothing set.
/// A plain key's value is its innermost override along the chain of parents, else its default;
/// a built key (d, e) is the same, except that its "default" is built from the other keys'
/// values under the same overrides.
private struct ModelScopes {
  struct Scope {
    let parent: Int?
    let overrides: [ModelScopeKey: String]
  }

  static let root = 0

  private(set) var scopes = [Scope(parent: nil, overrides: [:])]

  /// Adds a scope nested in `parent`; a key set twice keeps its last value.
  mutating func enter(_ parent: Int, overriding pairs: [(ModelScopeKey, String)]) -> Int {
    var overrides: [ModelScopeKey: String] = [:]
    for (key, value) in pairs {
      overrides[key] = value
    }
    scopes.append(Scope(parent: parent, overrides: overrides))
    return scopes.count - 1
  }

  /// `scope`, its parent, and so on up to the root.
  func chain(_ scope: Int) -> [Int] {
    var chain: [Int] = []
    var next: Int? = scope
    while let current = next {
      chain.append(current)
      next = scopes[current].parent
    }
    return chain
  }

  /// The first override of `key` along `chain`, innermost first.
  func override(_ key: ModelScopeKey, along chain: [Int]) -> String? {
    chain.lazy.compactMap { scopes[$0].overrides[key] }.first
  }

  /// The value `DependencyValues.current` has for `key` while `scope` is current.
  func value(_ key: ModelScopeKey, in scope: Int) -> String {
    let chain = chain(scope)
    return Self.resolve(key) { override($0, along: chain) }
  }

  /// What an object made in scope `made` reads for `key` while `current` is the current scope.
  ///
  /// The scopes of `current`'s chain that are not in `made`'s are the ones below their nearest
  /// common ancestor: their overrides are newer than the capture and win. Every other key
  /// reads as it would in `made`.
  func value(_ key: ModelScopeKey, madeIn made: Int, readIn current: Int) -> String {
    let madeChain = chain(made)
    let newer = chain(current).filter { !madeChain.contains($0) }
    return Self.resolve(key) { override($0, along: newer) ?? override($0, along: madeChain) }
  }

  /// The value of `key` given where overrides come from.
  static func resolve(
    _ key: ModelScopeKey,
    _ override: (ModelScopeKey) -> String?
  ) -> String {
    if let value = override(key) { return value }
    switch key {
    case .a: return "a0"
    case .b: return "b0"
    case .c: return "c0"
    case .d: return "d(\(resolve(.a, override)),\(resolve(.b, override)))"
    case .e: return "e(\(resolve(.d, override)),\(resolve(.c, override)))"
    }
  }
}

// MARK: - Random sequences

/// SplitMix64: small, seedable, and the same on every platform and toolchain.
private struct ModelSplitMix64 {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<count`.
  mutating func below(_ count: Int) -> Int {
    Int(next() % UInt64(count))
  }
}

/// One step of a sequence.
private enum ModelOperation {
  /// Enter a nested scope that overrides one or two keys.
  case enter
  /// Leave the current scope, or the continuation being yielded to.
  case leave
  /// Read a key through `DependencyValues.current`.
  case readCurrent
  /// Make an object that captures the current scope, and keep it.
  case makeObject
  /// Read a key through a kept object.
  case readObject
  /// Capture the current scope with `withEscapedDependencies`, and keep the continuation.
  case escape
  /// Read a key inside a kept continuation.
  case yieldAndRead
  /// Run more steps inside a kept continuation.
  case yieldAndContinue
  /// Copy the current container into a variable, and keep it.
  case makeContainer
  /// Set a key on a kept container variable, after it may have been bound.
  case mutateContainer
  /// Run more steps with a kept container bound.
  case bindContainer
  /// Read a key through an object that a built value read while it was built.
  case readNested
  /// Read a key inside the escaped scope that a built value holds.
  case readEscaped

  /// Operations in proportion to how often a sequence picks them.
  static let weighted: [ModelOperation] = [
    .enter, .enter, .enter, .leave, .leave, .readCurrent, .makeObject, .makeObject,
    .readObject, .readObject, .readObject, .readObject, .escape, .escape, .yieldAndRead,
    .yieldAndContinue, .yieldAndContinue, .makeContainer, .mutateContainer, .mutateContainer,
    .bindContainer, .bindContainer, .readNested, .readEscaped,
  ]
}

/// Drives the library and the model with the same random steps and compares every read.
private final class ModelSequence {
  static let steps = 80
  static let maximumDepth = 6

  let seed: UInt64
  /// The first read that disagreed with the model, with the steps that led to it.
  private(set) var failure: String?

  private var random: ModelSplitMix64
  private var model = ModelScopes()
  private var objects: [(object: any ModelObject, scope: Int)] = []
  private var continuations: [(continuation: DependencyValues.Continuation, scope: Int)] = []
  private var containers: [(values: DependencyValues, scope: Int)] = []
  private var step = 0
  private var valueCount = 0
  private var trace: [String] = []

  init(seed: UInt64) {
    self.seed = seed
    self.random = ModelSplitMix64(state: seed)
  }

  /// Runs the steps in a fresh container, then reads what they kept from outside it.
  func run() {
    withDependencies(DependencyValues(context: .test)) {
      perform(in: ModelScopes.root, depth: 0)
    }
    readKeptAfterTheContainerIsUnbound()
  }

  /// Performs steps with `scope` current, until a `leave`, a failure or the end of the budget.
  private func perform(in scope: Int, depth: Int) {
    while failure == nil && step < Self.steps {
      step += 1
      let operation = ModelOperation.weighted[random.below(ModelOperation.weighted.count)]
      switch operation {
      case .enter where depth < Self.maximumDepth:
        enter(from: scope, depth: depth)
      case .leave where depth > 0:
        trace.append("\(step): leave scope \(scope)")
        return
      case .makeObject:
        makeObject(in: scope)
      case .readObject where !objects.isEmpty:
        readObject(in: scope)
      case .escape:
        withEscapedDependencies { continuations.append(($0, scope)) }
        trace.append("\(step): continuation #\(continuations.count - 1) in scope \(scope)")
      case .yieldAndRead where !continuations.isEmpty:
        yieldAndRead()
      case .yieldAndContinue where !continuations.isEmpty && depth < Self.maximumDepth:
        yieldAndContinue(depth: depth)
      case .makeContainer:
        containers.append((DependencyValues.current, scope))
        trace.append("\(step): container #\(containers.count - 1) in scope \(scope)")
      case .mutateContainer where !containers.isEmpty:
        mutateContainer()
      case .bindContainer where !containers.isEmpty && depth < Self.maximumDepth:
        bindContainer(depth: depth)
      case .readNested:
        let key = randomKey()
        check(
          "read \(key) through the object a built value holds in scope \(scope)",
          expected: model.value(key, in: scope),
          actual: DependencyValues.current.modelOuter.inner.read(key)
        )
      case .readEscaped:
        let key = randomKey()
        check(
          "read \(key) in the escaped scope a built value holds in scope \(scope)",
          expected: model.value(key, in: scope),
          actual: DependencyValues.current.modelEscaper.yield {
            DependencyValues.current[model: key]
          }
        )
      default:
        readCurrent(in: scope)
      }
    }
  }

  // MARK: Steps

  private func enter(from scope: Int, depth: Int) {
    var pairs: [(ModelScopeKey, String)] = []
    for _ in 0...random.below(2) {
      // The plain keys more often than the built ones, whose overrides hide their inputs.
      let key = [ModelScopeKey.a, .a, .b, .b, .c, .c, .d, .e][random.below(8)]
      valueCount += 1
      pairs.append((key, "\(key)\(valueCount)"))
    }
    let child = model.enter(scope, overriding: pairs)
    let described = pairs.map { "\($0.0) = \($0.1)" }.joined(separator: ", ")
    trace.append("\(step): enter scope \(child) in \(scope): \(described)")
    withDependencies {
      for (key, value) in pairs {
        $0[model: key] = value
      }
    } operation: {
      perform(in: child, depth: depth + 1)
    }
  }

  /// A container variable set after it was copied or bound: a scope nested in what it was.
  private func mutateContainer() {
    let index = random.below(containers.count)
    let key = [ModelScopeKey.a, .b, .c][random.below(3)]
    valueCount += 1
    let value = "\(key)\(valueCount)"
    let scope = model.enter(containers[index].scope, overriding: [(key, value)])
    containers[index].values[model: key] = value
    containers[index].scope = scope
    trace.append("\(step): container #\(index) sets \(key) = \(value): scope \(scope)")
  }

  private func bindContainer(depth: Int) {
    let index = random.below(containers.count)
    let (values, scope) = containers[index]
    trace.append("\(step): bind container #\(index) (scope \(scope))")
    withDependencies(values) {
      perform(in: scope, depth: depth + 1)
    }
  }

  private func readCurrent(in scope: Int) {
    let key = randomKey()
    check(
      "read \(key) in scope \(scope)",
      expected: model.value(key, in: scope),
      actual: DependencyValues.current[model: key]
    )
  }

  private func makeObject(in scope: Int) {
    let object: any ModelObject
    switch random.below(3) {
    case 0: object = ModelLiteralReader()
    case 1: object = ModelKeyTypeReader()
    default: object = ModelKeyPathReader()
    }
    objects.append((object, scope))
    trace.append("\(step): object #\(objects.count - 1) in scope \(scope)")
  }

  private func readObject(in scope: Int) {
    let index = random.below(objects.count)
    let (object, made) = objects[index]
    let key = randomKey()
    check(
      "read \(key) through object #\(index) (made in scope \(made)) in scope \(scope)",
      expected: model.value(key, madeIn: made, readIn: scope),
      actual: object.read(key)
    )
  }

  private func yieldAndRead() {
    let index = random.below(continuations.count)
    let (continuation, captured) = continuations[index]
    let key = randomKey()
    check(
      "read \(key) in continuation #\(index) (scope \(captured))",
      expected: model.value(key, in: captured),
      actual: continuation.yield { DependencyValues.current[model: key] }
    )
  }

  private func yieldAndContinue(depth: Int) {
    let index = random.below(continuations.count)
    let (continuation, captured) = continuations[index]
    trace.append("\(step): yield to continuation #\(index) (scope \(captured))")
    continuation.yield {
      perform(in: captured, depth: depth + 1)
    }
  }

  /// Outside the sequence's container the process root is current: it overrides nothing, so
  /// objects read as in their own scope, and continuations still re-enter theirs.
  private func readKeptAfterTheContainerIsUnbound() {
    for (index, (object, made)) in objects.enumerated() where failure == nil {
      for key in ModelScopeKey.allCases where failure == nil {
        step += 1
        check(
          "read \(key) through object #\(index) (made in scope \(made)) outside the container",
          expected: model.value(key, in: made),
          actual: object.read(key)
        )
      }
    }
    for (index, (continuation, captured)) in continuations.enumerated() where failure == nil {
      for key in ModelScopeKey.allCases where failure == nil {
        step += 1
        check(
          "read \(key) in continuation #\(index) (scope \(captured)) outside the container",
          expected: model.value(key, in: captured),
          actual: continuation.yield { DependencyValues.current[model: key] }
        )
      }
    }
  }

  // MARK: Helpers

  private func randomKey() -> ModelScopeKey {
    ModelScopeKey.allCases[random.below(ModelScopeKey.allCases.count)]
  }

  private func check(_ read: String, expected: String, actual: String) {
    trace.append("\(step): \(read) -> \(actual)")
    guard actual != expected, failure == nil else { return }
    failure = """
      seed \(seed) step \(step): \(read): expected \(expected), got \(actual)
      steps:
      \(trace.joined(separator: "\n"))
      """
  }
}
