import TinyDependency
import TinyDependencyLifecycle

/// Measures reads through the wrapper, `let` and subscript, at the root, overridden, nested,
/// captured and prepared.
///
/// - Parameters:
///   - report: Where the cases are recorded.
///   - rootModel: The model made at the root, which the thread cases read too.
@MainActor
func measureReads(_ report: Report, rootModel: Model) async {
  let reads = report.reads
  _ = rootModel.value
  report.record(
    "dependency.root",
    median(iterations: reads) { n in
      for _ in 0..<n { consume(rootModel.value) }
    },
    baseline: "taskLocal.raw.unbound"
  )

  // Reads of a prepared async key are reads of a built value: the same path as `dependency.root`.
  do {
    try await DependencyValues.current.prepare([PreparedValueKey.self])
  } catch {
    fatalError("prepare failed: \(error)")
  }
  let preparedModel = PreparedModel()
  _ = preparedModel.value
  report.record(
    "dependency.prepared",
    median(iterations: reads) { n in
      for _ in 0..<n { consume(preparedModel.value) }
    },
    baseline: "dependency.root"
  )

  let letModel = LetModel()
  _ = letModel.value()
  report.record(
    "dependency.let",
    median(iterations: reads) { n in
      for _ in 0..<n { consume(letModel.value()) }
    },
    baseline: "dependency.root"
  )

  _ = DependencyValues.current.benchValue
  report.record(
    "current.subscript",
    median(iterations: reads) { n in
      for _ in 0..<n { consume(DependencyValues.current[BenchValueKey.self]) }
    },
    baseline: "taskLocal.raw.unbound"
  )

  withDependencies {
    $0.benchValue = 7
  } operation: {
    report.record(
      "dependency.overridden",
      median(iterations: reads) { n in
        for _ in 0..<n { consume(rootModel.value) }
      },
      baseline: "taskLocal.raw.bound"
    )
  }

  nested(10) {
    report.record(
      "dependency.overridden.10scopes",
      median(iterations: reads) { n in
        for _ in 0..<n { consume(rootModel.value) }
      },
      baseline: "taskLocal.raw.bound"
    )
  }

  let capturedModel = withDependencies {
    $0.benchValue = 9
  } operation: {
    Model()
  }
  withDependencies {
    $0.otherValue = 1
  } operation: {
    _ = capturedModel.value
    report.record(
      "dependency.captured",
      median(iterations: reads) { n in
        for _ in 0..<n { consume(capturedModel.value) }
      },
      baseline: "taskLocal.raw.bound"
    )
  }
}

/// Measures making a model with one wrapper, at the root and in a scope.
@MainActor
func measureWrapperCreation(_ report: Report) {
  let reads = report.reads
  report.record(
    "dependency.create.root",
    median(iterations: reads) { n in
      for _ in 0..<n { consume(Model()) }
    }
  )
  withDependencies {
    $0.benchValue = 7
  } operation: {
    report.record(
      "dependency.create.scoped",
      median(iterations: reads) { n in
        for _ in 0..<n { consume(Model()) }
      },
      baseline: "dependency.create.root"
    )
  }
}

/// Runs `body` inside `depth` nested scopes, each overriding two keys.
private func nested(_ depth: Int, _ body: () -> Void) {
  if depth == 0 { return body() }
  withDependencies {
    $0.benchValue = depth
    $0.otherValue = depth
  } operation: {
    nested(depth - 1, body)
  }
}
