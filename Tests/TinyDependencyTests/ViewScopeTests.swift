import Testing

@testable import TinyDependency

/// What SwiftUI's `update()` does before each body of a view that stores a `@Dependency`
/// (Sources/TinyDependency/Adapters/ViewScope.swift): it hands the wrapper the nearest
/// modifier's container. Linux has no SwiftUI to call it; these tests call it as it does.
@Suite("A wrapper stored in a view reads the nearest modifier's container")
struct ViewScopeTests {
  @Test func aWrapperGivenTheModifiersContainerReadsItsValues() {
    let modifier = Self.modifier(greeting: "modifier")
    var wrapper = Dependency(ViewScopeGreetingKey.self)
    #expect(wrapper.wrappedValue == "test")
    wrapper.adoptViewScope(modifier)
    #expect(wrapper.wrappedValue == "modifier")
  }

  @Test func anOverrideBoundWhereTheBodyReadsStillWins() {
    var wrapper = Dependency(ViewScopeGreetingKey.self)
    wrapper.adoptViewScope(Self.modifier(greeting: "modifier"))
    let inner = withDependencies {
      $0[ViewScopeGreetingKey.self] = "bound"
    } operation: {
      wrapper.wrappedValue
    }
    #expect(inner == "bound")
    #expect(wrapper.wrappedValue == "modifier")
  }

  @Test func withNoModifierAboveTheWrapperKeepsTheScopeItWasMadeIn() {
    var wrapper = withDependencies {
      $0[ViewScopeGreetingKey.self] = "made"
    } operation: {
      Dependency(ViewScopeGreetingKey.self)
    }
    wrapper.adoptViewScope(nil)
    #expect(wrapper.wrappedValue == "made")
  }

  @Test func theNearestModifierWinsOverTheScopeTheViewWasMadeIn() {
    var wrapper = withDependencies {
      $0[ViewScopeGreetingKey.self] = "made"
    } operation: {
      Dependency(ViewScopeGreetingKey.self)
    }
    wrapper.adoptViewScope(Self.modifier(greeting: "modifier"))
    #expect(wrapper.wrappedValue == "modifier")
  }

  @Test func aHundredBodiesUnderOneModifierBuildItsValueOnce() {
    let builds = Locked(0)
    var modifier = DependencyValues.current
    modifier[ViewScopeCounterKey.self] = ViewScopeCounter(builds: builds)
    var first = Dependency(\.viewScopeService)
    first.adoptViewScope(modifier)
    let serial = first.scope?.serial
    var seen: [Int] = []
    for _ in 0..<100 {
      // Each redraw makes the view, and so its wrapper, again; SwiftUI then updates it.
      var wrapper = Dependency(\.viewScopeService)
      wrapper.adoptViewScope(modifier)
      #expect(wrapper.scope?.serial == serial)
      seen.append(wrapper.wrappedValue.id)
    }
    #expect(builds.withLock { $0 } == 1)
    #expect(Set(seen).count == 1)
  }

  @Test func aNewModifierContainerIsReadFromTheNextBody() {
    var wrapper = Dependency(ViewScopeGreetingKey.self)
    wrapper.adoptViewScope(Self.modifier(greeting: "first"))
    #expect(wrapper.wrappedValue == "first")
    wrapper.adoptViewScope(Self.modifier(greeting: "second"))
    #expect(wrapper.wrappedValue == "second")
  }

  @Test func theProcessRootAsTheModifiersContainerReadsTheCurrentScope() {
    var wrapper = withDependencies {
      $0[ViewScopeGreetingKey.self] = "made"
    } operation: {
      Dependency(ViewScopeGreetingKey.self)
    }
    wrapper.adoptViewScope(DependencyValues.processRoot)
    #expect(wrapper.scope == nil)
    #expect(wrapper.wrappedValue == DependencyValues.current[ViewScopeGreetingKey.self])
    let bound = withDependencies {
      $0[ViewScopeGreetingKey.self] = "bound"
    } operation: {
      wrapper.wrappedValue
    }
    #expect(bound == "bound")
  }

  @Test func theTestsRootAsTheModifiersContainerIsReadAsTheScopeTheWrapperWasMadeIn() {
    var wrapper = withDependencies {
      $0[ViewScopeGreetingKey.self] = "made"
    } operation: {
      Dependency(ViewScopeGreetingKey.self)
    }
    wrapper.adoptViewScope(DependencyValues.current)
    #expect(wrapper.scope?.serial == DependencyValues.current.storage.serial)
    #expect(wrapper.wrappedValue == "test")
    let inScope = withDependencies {
      $0[ViewScopeCounterKey.self] = ViewScopeCounter(builds: Locked(0))
    } operation: {
      wrapper.wrappedValue
    }
    #expect(inScope == "test")
  }

  @Test func aContainerChangedAfterTheWrapperAdoptedItIsReadAsItWasUntilTheNextBody() {
    var modifier = DependencyValues(context: .test)
    modifier[ViewScopeGreetingKey.self] = "first"
    var wrapper = Dependency(ViewScopeGreetingKey.self)
    wrapper.adoptViewScope(modifier)
    modifier[ViewScopeGreetingKey.self] = "second"
    #expect(wrapper.wrappedValue == "first")
    wrapper.adoptViewScope(modifier)
    #expect(wrapper.wrappedValue == "second")
  }

  /// Once a redraw hands the wrapper a new container, the old one goes, even after it was read
  /// in another scope (its combination with that scope derives from it).
  @Test func aModifierContainerReplacedOnARedrawIsReleased() {
    weak var first: DependencyStorage?
    var wrapper = Dependency(ViewScopeGreetingKey.self)
    var elsewhere = DependencyValues.current
    elsewhere[ViewScopeCounterKey.self] = ViewScopeCounter(builds: Locked(0))
    do {
      let modifier = Self.modifier(greeting: "first")
      first = modifier.storage
      wrapper.adoptViewScope(modifier)
      #expect(withDependencies(elsewhere) { wrapper.wrappedValue } == "first")
    }
    wrapper.adoptViewScope(Self.modifier(greeting: "second"))
    #expect(first == nil, "the container the wrapper no longer reads was kept")
    #expect(withDependencies(elsewhere) { wrapper.wrappedValue } == "second")
  }

  /// A container as a modifier derives it: the current one with one value set.
  private static func modifier(greeting: String) -> DependencyValues {
    var values = DependencyValues.current
    values[ViewScopeGreetingKey.self] = greeting
    return values
  }
}

private enum ViewScopeGreetingKey: DependencyKey {
  static let defaultValue = "live"
  static let testValue = "test"
}

/// Counts its builds: a service a redraw must not build again.
private final class ViewScopeCounter: Sendable {
  let builds: Locked<Int>
  init(builds: Locked<Int>) { self.builds = builds }
}

private struct ViewScopeService: Sendable {
  let id: Int
}

private enum ViewScopeServiceKey: DependencyKey {
  static var defaultValue: ViewScopeService {
    @Dependency(ViewScopeCounterKey.self) var counter
    let id = counter.builds.withLock { count in
      count += 1
      return count
    }
    return ViewScopeService(id: id)
  }
}

private enum ViewScopeCounterKey: DependencyKey {
  static let defaultValue = ViewScopeCounter(builds: Locked(0))
}

extension DependencyValues {
  fileprivate var viewScopeService: ViewScopeService {
    get { self[ViewScopeServiceKey.self] }
    set { self[ViewScopeServiceKey.self] = newValue }
  }
}
