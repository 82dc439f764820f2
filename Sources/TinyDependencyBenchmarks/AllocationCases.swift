import TinyDependency

/// Read loops whose allocations are counted: each sets up its scope, then passes one read to
/// `run`, which repeats it as often as the child process was asked to.
let allocationCases: [String: @MainActor (_ run: (_ read: () -> Void) -> Void) -> Void] = [
  "allocations.sanity.malloc": { run in
    run {
      let pointer = UnsafeMutablePointer<Int>.allocate(capacity: 1)
      consume(pointer)
      pointer.deallocate()
    }
  },
  "allocations.raw.unbound": { run in
    run { consume(rawRead()) }
  },
  "allocations.dependency.root": { run in
    let model = Model()
    run { consume(model.value) }
  },
  "allocations.current.subscript": { run in
    _ = DependencyValues.current[BenchValueKey.self]
    run { consume(DependencyValues.current[BenchValueKey.self]) }
  },
  "allocations.dependency.overridden": { run in
    let model = Model()
    withDependencies {
      $0.benchValue = 7
    } operation: {
      run { consume(model.value) }
    }
  },
  "allocations.firstRead": { run in
    let keys = generatedKeys(12_000)
    let values = DependencyValues(context: .default)
    var next = 0
    run {
      let key = keys[next % keys.count]
      consume(read(key, from: values))
      next += 1
    }
  },
  "allocations.scope.entry.raw": { run in
    var index = 0
    run {
      Raw.$current.withValue(rawValues(setting: index)) { consume(index) }
      index += 1
    }
  },
  "allocations.scope.entry": { run in
    var index = 0
    run {
      withDependencies {
        $0.benchValue = index
      } operation: {
        consume(index)
      }
      index += 1
    }
  },
  "allocations.scope.entry.read": { run in
    _ = DependencyValues.current.benchValue
    var index = 0
    run {
      withDependencies {
        $0.otherValue = index
      } operation: {
        consume(DependencyValues.current.benchValue)
      }
      index += 1
    }
  },
  "allocations.dependency.create.root": { run in
    run { consume(Model()) }
  },
  "allocations.dependency.create.scoped": { run in
    withDependencies {
      $0.benchValue = 7
    } operation: {
      run { consume(Model()) }
    }
  },
  "allocations.dependency.create.scoped3": { run in
    withDependencies {
      $0.benchValue = 7
    } operation: {
      run { consume(ThreeWrapperModel()) }
    }
  },
  "allocations.scope.entry.create3": { run in
    var index = 0
    run {
      withDependencies {
        $0.benchValue = index
      } operation: {
        consume(ThreeWrapperModel())
      }
      index += 1
    }
  },
  "allocations.dictionary.insert": { run in
    let keys = generatedKeys(12_000)
    var storage: [ObjectIdentifier: any Sendable] = [:]
    var next = 0
    run {
      let key = keys[next % keys.count]
      storage[ObjectIdentifier(key)] = key.defaultValue
      next += 1
    }
    consume(storage.count)
  },
  "allocations.dependency.captured": { run in
    let model = withDependencies {
      $0.benchValue = 9
    } operation: {
      Model()
    }
    withDependencies {
      $0.otherValue = 1
    } operation: {
      run { consume(model.value) }
    }
  },
  "allocations.dependency.adopted": { run in
    // A value the root built, read in a scope that overrides another key: the scope keeps the
    // root's box in its own index, and its reads check that the value was not shut down.
    let model = Model()
    _ = model.value
    withDependencies {
      $0.otherValue = 1
    } operation: {
      run { consume(model.value) }
    }
  },
]
