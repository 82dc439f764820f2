import TinyDependency

// Random sequences of ScopingModelTests: the library and the reference model, step by step.

/// Drives the library and the model with the same random steps and compares every read.
final class ModelSequence {
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
      case .readHeld:
        let key = randomKey()
        check(
          "read \(key) through the container a built value keeps in scope \(scope)",
          expected: model.value(key, in: scope),
          actual: DependencyValues.current.modelHolder.values[model: key]
        )
      case .readFresh:
        let a = model.value(.a, in: scope)
        check(
          "read the value built from fresh containers in scope \(scope)",
          expected: "e(d(a0,b0),c0)|d(a0,b0)|\(a)",
          actual: DependencyValues.current.modelFresh
        )
      case .alternateContainer where !containers.isEmpty:
        alternateContainer()
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

  /// A container variable that a loop sets and binds round after round, a and c in turn, as a
  /// server reuses one: each round is a scope nested in the one before.
  private func alternateContainer() {
    let index = random.below(containers.count)
    for round in 0..<(2 + random.below(5)) {
      let key = round.isMultiple(of: 2) ? ModelScopeKey.a : .c
      valueCount += 1
      let value = "\(key)\(valueCount)"
      let scope = model.enter(containers[index].scope, overriding: [(key, value)])
      containers[index].values[model: key] = value
      containers[index].scope = scope
      trace.append("\(step): container #\(index) sets \(key) = \(value): scope \(scope)")
      let read = randomKey()
      check(
        "read \(read) with container #\(index) bound (scope \(scope))",
        expected: model.value(read, in: scope),
        actual: withDependencies(containers[index].values) { DependencyValues.current[model: read] }
      )
    }
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
