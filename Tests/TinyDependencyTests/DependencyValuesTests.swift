import Dispatch
import TestSubprocess
import Testing

@testable import TinyDependency

@Suite("An explicit container")
struct DependencyValuesTests {
  // MARK: - Explicit containers

  @Test func resolvesForItsContextWithoutAnyBinding() {
    #expect(DependencyValues(context: .default).contextName == "live")
    #expect(DependencyValues(context: .test).contextName == "test")
    #expect(DependencyValues(context: .preview).contextName == "preview")
    #expect(DependencyValues(context: .live).context == .default)
  }

  @Test func containerWithoutContextUsesDetectedContext() {
    let values = DependencyValues()
    #expect(values.context == DependencyContext.detected)
    #expect(values.context == .test)
  }

  @Test func setValueIsReadBackWithoutTouchingCurrent() {
    var values = DependencyValues(context: .default)
    values.greeting = "bonjour"
    #expect(values.greeting == "bonjour")
    #expect(DependencyValues.current.greeting == "hello")
  }

  @Test func valuesBuiltInContainerReadItsOverrides() {
    var values = DependencyValues(context: .default)
    values.greeting = "hej"
    #expect(values.greeter.name == "greeter says hej")
  }

  @Test func explicitContainerBoundAsCurrent() {
    var values = DependencyValues(context: .preview)
    values.greeting = "ciao"
    let seen = withDependencies(values) {
      (DependencyValues.current.greeting, DependencyValues.current.contextName)
    }
    #expect(seen == ("ciao", "preview"))
    #expect(DependencyValues.current.greeting == "hello")
  }

  // MARK: - Value semantics

  @Test func settingCopyLeavesOriginalUnchanged() {
    var original = DependencyValues(context: .test)
    original.greeting = "original"
    var copy = original
    copy.greeting = "copy"
    #expect(original.greeting == "original")
    #expect(copy.greeting == "copy")
  }

  @Test func settingCopyOfCurrentLeavesActiveScopeUnchanged() {
    withDependencies {
      $0.greeting = "scoped"
    } operation: {
      var copy = DependencyValues.current
      copy.greeting = "copied"
      copy.context = .preview
      #expect(DependencyValues.current.greeting == "scoped")
      #expect(DependencyValues.current.context == .test)
      #expect(copy.greeting == "copied")
    }
  }

  @Test func copyAfterReadDoesNotShareValuesBuiltFromChangedKeys() {
    var first = DependencyValues(context: .default)
    first.greeting = "one"
    #expect(first.greeter.name == "greeter says one")
    var second = first
    second.greeting = "two"
    #expect(second.greeter.name == "greeter says two")
    #expect(first.greeter.name == "greeter says one")
  }

  // MARK: - Built once per container

  @Test func valueIsBuiltOncePerContainer() {
    let values = DependencyValues(context: .default)
    let first = values.sharedService
    let second = values.sharedService
    #expect(first === second)
    #expect(values.buildLog.count("SharedService") == 1)

    let other = DependencyValues(context: .default)
    #expect(other.sharedService !== first)
  }

  @Test func transientValueIsBuiltOnEveryRead() {
    let values = DependencyValues(context: .default)
    let first = values[TransientServiceKey.self]
    let second = values[TransientServiceKey.self]
    #expect(first !== second)
    #expect(values.buildLog.count("TransientService") == 2)
    #expect(TransientServiceKey.lifetime == .transient)
  }

  @Test func concurrentFirstReadsBuildExactlyOnce() async {
    for _ in 0..<5 {
      let values = DependencyValues(context: .default)
      let services = await onThreads(16) { _ in values[SlowServiceKey.self] }
      #expect(services.count == 16)
      #expect(services.allSatisfy { $0 === services[0] })
      #expect(values.buildLog.count("SlowService") == 1)
    }
  }

  @Test func buildThatWaitsOnAnotherThreadResolvingAnotherKeyDoesNotDeadlock() async {
    let values = DependencyValues(context: .default)
    let finished = await finishes(within: 10) {
      _ = values[CrossThreadKey.self]
    }
    #expect(finished)
    #expect(values[CrossThreadKey.self].name == "cross-thread(shared)")
  }

  @Test func buildsOfDifferentKeysRunInParallel() async {
    // Each build waits until the other has started: with a lock held during builds, they
    // would run one after the other and both waits would time out.
    let values = DependencyValues(context: .default)
    let rendezvous = Rendezvous()
    var container = values
    container[RendezvousKey.self] = rendezvous
    let frozen = container
    let results = await onThreads(2) { index in
      index == 0 ? frozen[PingKey.self] : frozen[PongKey.self]
    }
    #expect(results.sorted() == ["ping met pong", "pong met ping"])
  }

  // MARK: - Scopes

  @Test func valueBuiltInScopeReflectsOverridesOfWhatItRead() {
    let root = DependencyValues(context: .default)
    #expect(root.greeter.name == "greeter says hello")
    withDependencies(root) {
      withDependencies {
        $0.greeting = "hola"
      } operation: {
        #expect(DependencyValues.current.greeter.name == "greeter says hola")
      }
    }
    #expect(root.greeter.name == "greeter says hello")
  }

  @Test func nestedScopeReusesParentValueWhenNothingItReadChanged() {
    let root = DependencyValues(context: .default)
    let outer = root.greeter
    withDependencies(root) {
      withDependencies {
        $0.leaf = "other leaf"
      } operation: {
        #expect(DependencyValues.current.greeter === outer)
      }
    }
    #expect(root.buildLog.count("Greeter") == 1)
  }

  @Test func overridingLeafRebuildsEverythingAboveIt() {
    let root = DependencyValues(context: .default)
    #expect(root.top == "top(left(leaf), right(leaf))")
    var scoped = root
    scoped.leaf = "LEAF"
    #expect(scoped.top == "top(left(LEAF), right(LEAF))")
    #expect(root.buildLog.count("Top") == 2)
    #expect(root.buildLog.count("Left") == 2)
    #expect(root.buildLog.count("Right") == 2)
  }

  @Test func overridingOneBranchRebuildsOnlyThatBranchAndTop() {
    let root = DependencyValues(context: .default)
    #expect(root.top == "top(left(leaf), right(leaf))")
    var scoped = root
    scoped.right = "RIGHT"
    #expect(scoped.top == "top(left(leaf), RIGHT)")
    #expect(root.buildLog.count("Top") == 2)
    #expect(root.buildLog.count("Left") == 1)
    #expect(root.buildLog.count("Leaf") == 1)
  }

  @Test func scopesOverridingUnrelatedKeysShareOneBuiltValue() {
    let root = DependencyValues(context: .default)
    var services: [Service] = []
    for index in 0..<20 {
      var request = root
      request.greeting = "request \(index)"
      services.append(request.sharedService)
      #expect(request.greeter.name == "greeter says request \(index)")
    }
    #expect(services.allSatisfy { $0 === services[0] })
    #expect(root.sharedService === services[0])
    #expect(root.buildLog.count("SharedService") == 1)
    #expect(root.buildLog.count("Greeter") == 20)
  }

  @Test func valueThatReadAnOverriddenKeyStaysInItsScope() {
    let root = DependencyValues(context: .default)
    var scoped = root
    scoped.greeting = "scoped"
    #expect(scoped.greeter.name == "greeter says scoped")
    #expect(root.greeter.name == "greeter says hello")
  }

  @Test func contextChosenInScopeBuildsForThatContext() {
    let root = DependencyValues(context: .default)
    #expect(root.contextName == "live")
    var preview = root
    preview.context = .preview
    #expect(preview.contextName == "preview")
    #expect(root.contextName == "live")
  }
}

// MARK: - Fixtures

/// Built by handing work to another thread that resolves another key, and waiting for it.
enum CrossThreadKey: DependencyKey {
  static var defaultValue: Service {
    let values = DependencyValues.current
    let done = DispatchSemaphore(value: 0)
    let result = ResultSlots<String>(1)
    onNewThread {
      result[0] = values.sharedService.name
      done.signal()
    }
    done.wait()
    return Service("cross-thread(\(result[0] ?? "nothing"))")
  }
}

/// Two threads that each wait, for a bounded time, until the other has arrived.
///
/// `@unchecked Sendable`: `arrived` is only touched on `queue`, a serial queue.
final class Rendezvous: @unchecked Sendable {
  private let queue = DispatchQueue(label: "Rendezvous")
  private var arrived: Set<String> = []

  /// Marks `name` arrived and reports whether `other` arrived within five seconds.
  func meet(_ name: String, _ other: String) -> Bool {
    queue.sync { _ = arrived.insert(name) }
    for _ in 0..<5_000 {
      if queue.sync(execute: { arrived.contains(other) }) { return true }
      usleep(1_000)
    }
    return false
  }
}

enum RendezvousKey: DependencyKey {
  static var defaultValue: Rendezvous { Rendezvous() }
}

enum PingKey: DependencyKey {
  static var defaultValue: String {
    let met = DependencyValues.current[RendezvousKey.self].meet("ping", "pong")
    return met ? "ping met pong" : "ping alone"
  }
}

enum PongKey: DependencyKey {
  static var defaultValue: String {
    let met = DependencyValues.current[RendezvousKey.self].meet("pong", "ping")
    return met ? "pong met ping" : "pong alone"
  }
}

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif
