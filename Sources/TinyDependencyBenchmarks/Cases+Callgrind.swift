import TinyDependency
import TinyDependencyFactories
import TinyDependencyLifecycle

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The cases `--callgrind <case> <n>` runs: each sets up its scope, then passes one operation to
/// `run`, which repeats it `n` times inside `callgrindMeasuredLoop`, the only function callgrind
/// collects (`--toggle-collect`), so setup and exit cost nothing in the counts.
let callgrindCases: [String: @MainActor (_ run: (_ operation: () -> Void) -> Void) -> Void] = {
  var cases: [String: @MainActor (_ run: (_ operation: () -> Void) -> Void) -> Void] = [:]
  for overridden in [0, 10, 100, 1_000] {
    cases["scope.entry.\(overridden)overridden"] = { run in
      let keys = generatedKeys(overridden)
      withDependencies {
        for key in keys { set(key, 2, in: &$0) }
      } operation: {
        var index = 0
        run {
          withDependencies {
            $0.benchValue = index
          } operation: {
            consume(index)
          }
          index += 1
        }
      }
    }
  }
  cases["scope.entry.raw"] = { run in
    var index = 0
    run {
      Raw.$current.withValue(rawValues(setting: index)) { consume(index) }
      index += 1
    }
  }
  cases["firstRead"] = { run in
    let keys = generatedKeys(20_000)
    let values = DependencyValues(context: .default)
    var next = 0
    run {
      let key = keys[next]
      consume(read(key, from: values))
      next += 1
    }
  }
  cases["firstRead.raw.dictionary"] = { run in
    let keys = generatedKeys(20_000)
    var storage: [ObjectIdentifier: any Sendable] = [:]
    var next = 0
    run {
      let key = keys[next]
      storage[ObjectIdentifier(key)] = key.defaultValue
      next += 1
    }
    consume(storage.count)
  }
  cases["firstRead.raw.locked"] = { run in
    let keys = generatedKeys(20_000)
    let cache = LockedCache()
    var next = 0
    run {
      let key = keys[next]
      consume(cache.value(for: key))
      next += 1
    }
  }
  cases["dependency.root"] = { run in
    let model = Model()
    _ = model.value
    run { consume(model.value) }
  }
  cases["dependency.overridden"] = { run in
    let model = Model()
    withDependencies {
      $0.benchValue = 7
    } operation: {
      run { consume(model.value) }
    }
  }
  cases["dependency.captured"] = { run in
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
  }
  cases["taskLocal.raw.bound"] = { run in
    Raw.$current.withValue(RawValues(storage: [ObjectIdentifier(BenchValueKey.self): 7])) {
      run { consume(rawRead()) }
    }
  }
  cases["factory.closureKey"] = { run in
    let model = FactoryModel()
    _ = model.makeByHand(1)
    run { consume(model.makeByHand(1)) }
  }
  cases["factory.plain"] = { run in
    let model = FactoryModel()
    _ = model.make(1)
    run { consume(model.make(1)) }
  }
  cases["factory.sharedRead"] = { run in
    let model = FactoryModel()
    _ = model.shared
    run { consume(model.shared) }
  }
  cases["factory.cachedHit"] = { run in
    let model = FactoryModel()
    _ = model.cached(1)
    run { consume(model.cached(1)) }
  }
  cases.merge(objectCallgrindCases()) { _, object in object }
  cases.merge(collectionCallgrindCases) { own, _ in own }
  return cases
}()

/// The async cases `--callgrind-async <case> <n>` runs: one operation each.
let asyncCallgrindCases: [String: @MainActor () async -> Void] = [
  "scope.instance.beginEnd": {
    let instance = DependencyValues.current.beginScope(BenchSession.self) { $0.benchValue = 1 }
    instance.run { consume(1) }
    do { try await instance.end() } catch { fatalError("end failed: \(error)") }
  },
  "scope.instance.withDependencies": {
    withDependencies {
      $0.benchValue = 1
    } operation: {
      consume(1)
    }
  },
]

/// Repeats `operation` `count` times, for callgrind's `--toggle-collect`.
@MainActor @inline(never)
func callgrindAsyncMeasuredLoop(_ count: Int, _ operation: @MainActor () async -> Void) async {
  for _ in 0..<count { await operation() }
}

/// Repeats `operation` `count` times: the function callgrind's `--toggle-collect` names.
@inline(never)
func callgrindMeasuredLoop(_ count: Int, _ operation: () -> Void) {
  for _ in 0..<count { operation() }
}

/// The raw cache a first read is judged against: a lock, a dictionary lookup, a miss, the key's
/// default value made, and an insert, as a cache shared between threads must do.
final class LockedCache: @unchecked Sendable {
  // `@unchecked Sendable`: `storage` is only touched with `lock` held.
  private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private var storage: [ObjectIdentifier: any Sendable] = [:]

  init() { pthread_mutex_init(lock, nil) }

  deinit {
    pthread_mutex_destroy(lock)
    lock.deallocate()
  }

  @inline(never)
  func value(for key: any IntKey.Type) -> Int {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    if let found = storage[ObjectIdentifier(key)] { return found as! Int }
    let made = key.defaultValue
    storage[ObjectIdentifier(key)] = made
    return made
  }
}
