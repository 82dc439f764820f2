import Testing
import TinyDependency
import TinyDependencyTesting

/// Tests without any trait: each test case gets a root container of its own.
@Suite("Isolation without a trait")
struct TestRootRegistryTests {
  // MARK: - Swift Testing

  @Test func anUntraitedTestSeesAFreshCounter() async {
    await Task.yield()
    #expect(DependencyValues.current.counter.next() == 1)
    #expect(DependencyValues.current.counter.next() == 2)
  }

  @Test func anotherUntraitedTestAlsoSeesAFreshCounter() async {
    await Task.yield()
    #expect(DependencyValues.current.counter.next() == 1)
    #expect(DependencyValues.current.counter.next() == 2)
  }

  @Test(arguments: 0..<16)
  func eachArgumentOfAnUntraitedTestSeesAFreshCounter(argument: Int) async {
    await Task.yield()
    #expect(DependencyValues.current.counter.next() == 1)
  }

  @Test(arguments: [7, 7, 7])
  func equalArgumentsAreStillSeparateTestCases(argument: Int) async {
    await Task.yield()
    #expect(DependencyValues.current.counter.next() == 1)
  }

  @Test func theWrapperAndTheContainerReadTheSameRoot() {
    @Dependency(\.counter) var counter
    #expect(counter.next() == 1)
    #expect(DependencyValues.current.counter.next() == 2)
  }

  @Test func childTasksShareTheTestsRoot() async {
    #expect(DependencyValues.current.counter.next() == 1)
    let fromChild = await Task { DependencyValues.current.counter.next() }.value
    #expect(fromChild == 2)
  }

  @Test func scopesInsideTheTestDeriveFromItsRoot() {
    #expect(DependencyValues.current.counter.next() == 1)
    withDependencies {
      $0.greeting = "scoped"
    } operation: {
      #expect(DependencyValues.current.greeting == "scoped")
      #expect(DependencyValues.current.counter.next() == 2)
    }
  }

  @Test func anUntraitedTestReadsTestValues() {
    #expect(DependencyValues.current.context == .test)
    #expect(DependencyValues.current.greeting == "test hello")
  }
}

/// Traited and untraited tests at once, many in parallel, each with stateful values of its own.
@Suite("Isolation StressTests")
struct TestIsolationStressTests {
  @Test(arguments: 0..<200)
  func untraitedTestCasesInParallel(argument: Int) async {
    await Task.yield()
    let counter = DependencyValues.current.counter
    #expect(counter.next() == 1)
    let others = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<8 { group.addTask { DependencyValues.current.counter.next() } }
      return await group.reduce(into: [Int]()) { $0.append($1) }
    }
    #expect(others.sorted() == Array(2...9))
  }

  @Test(.dependency(\.counter, Counter()), arguments: 0..<200)
  func traitedTestCasesInParallel(argument: Int) async {
    await Task.yield()
    #expect(DependencyValues.current.counter.next() == 1)
    let second = await Task { DependencyValues.current.counter.next() }.value
    #expect(second == 2)
  }

  @Test(.strictDependencies, .dependency(\.greeting, "strict"), arguments: 0..<100)
  func strictTestCasesInParallel(argument: Int) async {
    await Task.yield()
    #expect(DependencyValues.current.greeting == "strict")
    #expect(DependencyValues.current.counter.next() == 1)
  }
}
