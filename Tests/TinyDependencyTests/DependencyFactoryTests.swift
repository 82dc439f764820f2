import Dispatch
import TestSubprocess
import Testing
import TinyDependency
import TinyDependencyFactories
import TinyDependencyGraph

// MARK: - Fixtures

/// A product with identity, which reads `\.greeting` when it is made.
final class Greeter: Sendable {
  let id: Int
  let greeting: String

  init(id: Int) {
    @Dependency(\.buildLog) var log
    @Dependency(\.greeting) var greeting
    log.built("Greeter \(id)")
    self.id = id
    self.greeting = greeting
  }
}

enum GreeterFactoryKey: DependencyKey {
  static var defaultValue: DependencyFactory<Int, Greeter> { .init { Greeter(id: $0) } }
  static var testValue: DependencyFactory<Int, Greeter> { defaultValue }
}

enum CachedGreeterFactoryKey: DependencyKey {
  static var defaultValue: DependencyFactory<Int, Greeter> { .cached { Greeter(id: $0) } }
  static var testValue: DependencyFactory<Int, Greeter> { defaultValue }
}

/// Makes its product slowly, so that concurrent first calls overlap.
enum SlowCachedFactoryKey: DependencyKey {
  static var defaultValue: DependencyFactory<String, Service> {
    .cached { name in
      DependencyValues.current.buildLog.built("slow \(name)")
      usleepForTests(50_000)
      return Service(name)
    }
  }
  static var testValue: DependencyFactory<String, Service> { defaultValue }
}

struct Row: Sendable, Equatable {
  let number: Int
  let text: String
}

enum RowFactoryKey: DependencyKey {
  static var defaultValue: DependencyFactory<(Int, String), Row> {
    .init { number, text in Row(number: number, text: text) }
  }
  static var testValue: DependencyFactory<(Int, String), Row> { defaultValue }
}

/// A shared value whose build calls a factory: the product's reads are the build's inputs.
enum GreeterOwnerKey: DependencyKey {
  static var defaultValue: Greeter { DependencyValues.current.makeGreeter(7) }
}

/// A cached product that calls its own factory with its own argument: a cycle.
enum SelfCallingFactoryKey: DependencyKey {
  static var defaultValue: DependencyFactory<Int, Int> {
    .cached { id in DependencyValues.current[SelfCallingFactoryKey.self](id) }
  }
}

/// A key whose build calls a factory whose product reads the key again: a cycle through it.
enum LoopingOwnerKey: DependencyKey {
  static var defaultValue: Int { DependencyValues.current[LoopingFactoryKey.self](1) }
}

enum LoopingFactoryKey: DependencyKey {
  static var defaultValue: DependencyFactory<Int, Int> {
    .init { id in id + DependencyValues.current[LoopingOwnerKey.self] }
  }
}

extension DependencyValues {
  var makeGreeter: DependencyFactory<Int, Greeter> {
    get { self[GreeterFactoryKey.self] }
    set { self[GreeterFactoryKey.self] = newValue }
  }

  var greeterFor: DependencyFactory<Int, Greeter> {
    get { self[CachedGreeterFactoryKey.self] }
    set { self[CachedGreeterFactoryKey.self] = newValue }
  }

  var makeRow: DependencyFactory<(Int, String), Row> {
    get { self[RowFactoryKey.self] }
    set { self[RowFactoryKey.self] = newValue }
  }
}

/// A product that counts the instances alive.
final class CountedProduct: Sendable {
  static let alive = BuildLog()
  init() { CountedProduct.alive.built("alive") }
  deinit { CountedProduct.alive.built("dead") }
  static var living: Int { alive.count("alive") - alive.count("dead") }
}

enum CountedProductFactoryKey: DependencyKey {
  static var defaultValue: DependencyFactory<Int, CountedProduct> { .cached { _ in .init() } }
  static var testValue: DependencyFactory<Int, CountedProduct> { defaultValue }
}

/// An object that keeps a factory after the scope it was made in ends.
final class GreeterScreen {
  @Dependency(\.makeGreeter) var makeGreeter
  @Dependency(\.greeterFor) var greeterFor
}

func usleepForTests(_ microseconds: UInt32) {
  let done = DispatchSemaphore(value: 0)
  _ = done.wait(timeout: .now() + .microseconds(Int(microseconds)))
}

@Suite("Factories make values from run-time arguments")
struct DependencyFactoryTests {
  // MARK: - Calls

  @Test func aProductIsMadeAtEachCallWithItsArgument() {
    withDependencies {
      $0.buildLog = BuildLog()
    } operation: {
      @Dependency(\.makeGreeter) var makeGreeter
      let first = makeGreeter(1)
      let again = makeGreeter(1)
      #expect(first.id == 1 && again.id == 1)
      #expect(first !== again)
      #expect(DependencyValues.current.buildLog.count("Greeter 1") == 2)
    }
  }

  @Test func singleTupleAndVoidFactoriesTypeCheckWithoutAmbiguity() {
    @Dependency(\.makeRow) var makeRow
    #expect(makeRow(1, "a") == Row(number: 1, text: "a"))
    #expect(makeRow((2, "b")) == Row(number: 2, text: "b"))
    let single = DependencyFactory<Int, String> { "\($0)" }
    #expect(single(3) == "3")
    let none = DependencyFactory<Void, Int> { 4 }
    #expect(none() == 4)
    let five = DependencyFactory<(Int, Int, Int, Int, Int), Int> { $0 + $1 + $2 + $3 + $4 }
    #expect(five(1, 2, 3, 4, 5) == 15)
    let three = DependencyFactory<(Int, Int, Int), Int> { a, b, c in a * b * c }
    #expect(three(2, 3, 4) == 24)
    let four = DependencyFactory<(Int, Int, Int, Int), Int> { a, b, c, d in a + b + c + d }
    #expect(four(1, 1, 1, 1) == 4)
  }

  @Test func productSeesOverridesAroundTheCallNotAroundTheFactorysConstruction() {
    let factory = withDependencies {
      $0.greeting = "at construction"
    } operation: {
      DependencyValues.current.makeGreeter
    }
    let product = withDependencies {
      $0.greeting = "at the call"
    } operation: {
      factory(1)
    }
    #expect(product.greeting == "at the call")
  }

  @Test func anObjectThatOutlivesItsScopeMakesProductsInTheScopeOfEachCall() {
    let screen = withDependencies {
      $0.greeting = "made in"
      $0.buildLog = BuildLog()
    } operation: {
      GreeterScreen()
    }
    let later = withDependencies {
      $0.greeting = "called in"
    } operation: {
      (screen.makeGreeter(1), screen.greeterFor(2))
    }
    #expect(later.0.greeting == "called in")
    #expect(later.1.greeting == "called in")
  }

  @Test func anOverriddenFactoryIsTheOneCalled() {
    withDependencies {
      $0.makeRow = .init { number, text in Row(number: -number, text: text + "!") }
    } operation: {
      @Dependency(\.makeRow) var makeRow
      #expect(makeRow(1, "a") == Row(number: -1, text: "a!"))
    }
  }

  // MARK: - Cached

  @Test func cachedFactoryMakesOneProductPerArgumentPerContainer() {
    var values = DependencyValues(context: .default)
    values.buildLog = BuildLog()
    let log = values.buildLog
    withDependencies(values) {
      @Dependency(\.greeterFor) var greeterFor
      let one = greeterFor(1)
      #expect(greeterFor(1) === one)
      #expect(greeterFor(2) !== one)
      #expect(log.count("Greeter 1") == 1)
    }
    var other = DependencyValues(context: .default)
    other.buildLog = log
    withDependencies(other) {
      _ = DependencyValues.current.greeterFor(1)
    }
    #expect(log.count("Greeter 1") == 2)
  }

  @Test func concurrentFirstCallsWithTheSameArgumentMakeOneProduct() {
    var values = DependencyValues(context: .default)
    values.buildLog = BuildLog()
    let log = values.buildLog
    let factory = values[SlowCachedFactoryKey.self]
    let results = ResultSlots<Service>(8)
    let frozen = values
    let joins = (0..<8).map { index in
      startThread {
        withDependencies(frozen) { results[index] = factory("tenant") }
      }
    }
    for join in joins { join() }
    #expect(log.count("slow tenant") == 1)
    #expect(Set(results.values.map(ObjectIdentifier.init)).count == 1)
  }

  @Test func aScopeThatOverridesAnInputOfTheProductMakesItsOwn() {
    withDependencies {
      $0.buildLog = BuildLog()
    } operation: {
      @Dependency(\.greeterFor) var greeterFor
      let outer = greeterFor(1)
      let unchanged = withDependencies {
        $0.leaf = "other leaf"
      } operation: {
        greeterFor(1)
      }
      let changed = withDependencies {
        $0.greeting = "hi"
      } operation: {
        greeterFor(1)
      }
      #expect(unchanged === outer)
      #expect(changed !== outer)
      #expect(changed.greeting == "hi")
      #expect(DependencyValues.current.buildLog.count("Greeter 1") == 2)
    }
  }

  @Test func productsMadeInAScopeAreReleasedWithIt() {
    weak var made: Greeter?
    withDependencies {
      $0.buildLog = BuildLog()
    } operation: {
      withDependencies {
        $0.greeting = "request"
      } operation: {
        let product = DependencyValues.current.greeterFor(1)
        made = product
        #expect(DependencyValues.current.greeterFor(1) === product)
      }
    }
    #expect(made == nil)
  }

  // MARK: - The last hit (a root's repeated call takes no table)

  @Test func oneCachedFactoryInTwoRootsHandsEachRootItsOwnProduct() {
    let log = BuildLog()
    var first = DependencyValues(context: .default)
    first.buildLog = log
    let factory = first.greeterFor
    var second = DependencyValues(context: .default)
    second.buildLog = log
    second.greeterFor = factory
    let a = withDependencies(first) { factory(1) }
    let b = withDependencies(second) { factory(1) }
    let aAgain = withDependencies(first) { factory(1) }
    let bAgain = withDependencies(second) { factory(1) }
    #expect(a !== b)
    #expect(aAgain === a)
    #expect(bAgain === b)
    #expect(log.count("Greeter 1") == 2)
  }

  @Test func alternatingArgumentsInARootEachKeepTheirProduct() {
    var values = DependencyValues(context: .default)
    values.buildLog = BuildLog()
    let log = values.buildLog
    withDependencies(values) {
      @Dependency(\.greeterFor) var greeterFor
      let one = greeterFor(1)
      let two = greeterFor(2)
      for _ in 0..<3 {
        #expect(greeterFor(1) === one)
        #expect(greeterFor(2) === two)
      }
      #expect(one !== two)
    }
    #expect(log.count("Greeter 1") == 1)
    #expect(log.count("Greeter 2") == 1)
  }

  @Test func aScopeThatOverridesAnInputAfterARootsHitStillMakesItsOwn() {
    var values = DependencyValues(context: .default)
    values.buildLog = BuildLog()
    withDependencies(values) {
      @Dependency(\.greeterFor) var greeterFor
      let root = greeterFor(1)
      #expect(greeterFor(1) === root)
      let changed = withDependencies {
        $0.greeting = "hi"
      } operation: {
        greeterFor(1)
      }
      #expect(changed !== root)
      #expect(changed.greeting == "hi")
      #expect(greeterFor(1) === root)
    }
  }

  @Test func aRequestScopesProductGoesWithItAfterARootsHit() {
    weak var made: Greeter?
    var values = DependencyValues(context: .default)
    values.buildLog = BuildLog()
    withDependencies(values) {
      @Dependency(\.greeterFor) var greeterFor
      let root = greeterFor(1)
      withDependencies {
        $0.greeting = "request"
      } operation: {
        let product = greeterFor(1)
        made = product
        #expect(product !== root)
      }
      #expect(greeterFor(1) === root)
    }
    #expect(made == nil)
  }

  /// Issue 45, item 7: a product made for an explicit container goes with it, even when the
  /// factory, kept by another root, handed it out last.
  @Test func aProductMadeForADroppedExplicitContainerIsReleasedWithIt() {
    weak var made: Greeter?
    var keeper = DependencyValues(context: .default)
    keeper.buildLog = BuildLog()
    let factory = keeper.greeterFor
    do {
      var explicit = DependencyValues(context: .default)
      explicit.buildLog = keeper.buildLog
      explicit.greeterFor = factory
      let product = withDependencies(explicit) { factory(1) }
      #expect(withDependencies(explicit) { factory(1) } === product)
      made = product
    }
    #expect(made == nil)
    // The factory still serves its own root.
    let own = withDependencies(keeper) { factory(1) }
    #expect(withDependencies(keeper) { factory(1) } === own)
  }

  @Test func concurrentCallsWithManyArgumentsInARootEachGetTheArgumentsProduct() {
    var values = DependencyValues(context: .default)
    values.buildLog = BuildLog()
    let frozen = values
    let factory = values.greeterFor
    let firsts = ResultSlots<Greeter>(8)
    let mismatches = ResultSlots<Int>(4)
    let joins = (0..<4).map { thread in
      startThread {
        withDependencies(frozen) {
          var wrong = 0
          for round in 0..<2_000 {
            let argument = (round + thread) % 8
            let product = factory(argument)
            if product.id != argument { wrong += 1 }
          }
          mismatches[thread] = wrong
        }
      }
    }
    for join in joins { join() }
    withDependencies(frozen) {
      for argument in 0..<8 { firsts[argument] = factory(argument) }
    }
    #expect(mismatches.values.count == 4)
    #expect(mismatches.values.allSatisfy { $0 == 0 })
    #expect(Set(firsts.values.map(ObjectIdentifier.init)).count == 8)
    for argument in 0..<8 {
      #expect(frozen.buildLog.count("Greeter \(argument)") == 1)
    }
  }

  // MARK: - Inside builds

  @Test func aFactoryCalledInsideABuildMakesTheProductsReadsItsInputs() {
    withDependencies {
      $0.buildLog = BuildLog()
    } operation: {
      @Dependency(GreeterOwnerKey.self) var owner
      let outer = owner
      #expect(outer.id == 7)
      let changed = withDependencies {
        $0.greeting = "hi"
      } operation: {
        owner
      }
      #expect(changed !== outer)
      #expect(changed.greeting == "hi")
      let unchanged = withDependencies {
        $0.leaf = "other"
      } operation: {
        owner
      }
      #expect(unchanged === outer)
    }
  }

  @Test func whatAFactorysProductsReadAreEdgesOfItsKey() {
    let values = DependencyValues(context: .default)
    withDependencies(values) { _ = DependencyValues.current[GreeterOwnerKey.self] }
    let graph = values.graph
    let edges = Set(graph.edges.map(\.description))
    #expect(edges.contains("GreeterOwnerKey -> GreeterFactoryKey"))
    #expect(edges.contains("GreeterFactoryKey -> GreetingKey"))
    #expect(!edges.contains("GreeterOwnerKey -> GreetingKey"))
  }

  #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test(.oneExitTestAtATime) func aCachedProductThatCallsItsOwnArgumentStopsWithTheCycle()
      async throws
    {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        _ = DependencyValues(context: .default)[SelfCallingFactoryKey.self](1)
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("SelfCallingFactoryKey -> SelfCallingFactoryKey"))
    }

    @Test(.oneExitTestAtATime) func aCycleThroughAFactoryStopsWithItsPath() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        _ = DependencyValues(context: .default)[LoopingOwnerKey.self]
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("LoopingOwnerKey -> LoopingFactoryKey -> LoopingOwnerKey"))
    }
  #endif

  // MARK: - Memory

  /// Twenty thousand here, in a debug build beside the other suites, counting the products
  /// alive; the benchmark's `memory.factory.requestScopes` runs a million in a release build
  /// and prints the growth of resident memory.
  @Test(.tags(.stress)) func productsOfRequestScopesGoWithTheirScopes() {
    let requests = 20_000
    var mostAlive = 0
    let growth = residentGrowth(iterations: requests) { index in
      withDependencies {
        $0.greeting = "request"
      } operation: {
        _ = DependencyValues.current[CountedProductFactoryKey.self](index)
      }
      mostAlive = max(mostAlive, CountedProduct.living)
    }
    print(
      "factory.cached: \(requests) request scopes, \(mostAlive) products alive at most, "
        + "peak resident memory grew \(growth / 1024) KiB"
    )
    #expect(mostAlive == 0)
    #expect(CountedProduct.alive.count("alive") == requests + requests / 10)
  }
}
