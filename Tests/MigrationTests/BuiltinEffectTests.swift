import Foundation
import Testing
import TinyDependency
import TinyDependencyBuiltins
import TinyDependencyConcurrency

// A model that reaches for the effects swift-dependencies' users read every day.
final class CheckoutModel {
  @Dependency(\.fireAndForget) var fireAndForget
  @Dependency(\.assert) var assert
  @Dependency(\.precondition) var precondition
  @Dependency(\.assertionFailure) var assertionFailure
  @Dependency(\.notificationCenter) var notificationCenter
  let sent = LockIsolated<[String]>([])

  func checkout(items: Int) async {
    assert(items > 0, "checking out an empty cart")
    precondition(items < 100, "too many items")
    await fireAndForget { [sent] in
      sent.withValue { $0.append("checkout \(items)") }
    }
  }
}

/// An assertion that counts instead of stopping.
struct CountingAssertion: AssertionEffect {
  let failures: LockIsolated<Int>

  func callAsFunction(
    _ condition: @autoclosure () -> Bool,
    _ message: @autoclosure () -> String,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt
  ) {
    if !condition() { failures.withValue { $0 += 1 } }
  }
}

@Suite("fireAndForget, assertions and the notification center are dependencies")
struct BuiltinEffectTests {
  @Test func fireAndForgetFinishesBeforeItReturnsInTests() async {
    let model = CheckoutModel()
    await model.checkout(items: 2)
    #expect(model.sent.value == ["checkout 2"])
  }

  @Test func fireAndForgetReportsWhatItsWorkThrows() async {
    struct Failure: Error {}
    @Dependency(\.fireAndForget) var fireAndForget
    await withKnownIssue {
      await fireAndForget { throw Failure() }
    } matching: { issue in
      mentions(issue, "Caught error: Failure")
    }
  }

  @Test func fireAndForgetDoesNotWaitLive() async {
    let (gate, open) = AsyncStream<Void>.makeStream()
    let finished = LockIsolated(false)
    await withDependencies {
      $0.context = .default
    } operation: {
      @Dependency(\.fireAndForget) var fireAndForget
      await fireAndForget {
        for await _ in gate { break }
        finished.setValue(true)
      }
    }
    #expect(!finished.value)
    open.yield()
    open.finish()
  }

  @Test func failedAssertionsAreIssuesInTests() async {
    let model = CheckoutModel()
    await withKnownIssue {
      await model.checkout(items: 0)
      await model.checkout(items: 100)
      model.assertionFailure("unreachable state")
    } matching: { issue in
      mentions(issue, "checking out an empty cart") || mentions(issue, "too many items")
        || mentions(issue, "unreachable state")
    }
    await model.checkout(items: 1)
  }

  @Test func assertionsAreOverridable() async {
    let failures = LockIsolated(0)
    let model = withDependencies {
      $0.assert = CountingAssertion(failures: failures)
    } operation: {
      CheckoutModel()
    }
    await model.checkout(items: 0)
    model.assertionFailure()
    #expect(failures.value == 2)
  }

  @Test func eachTestHasANotificationCenterOfItsOwn() async {
    let model = CheckoutModel()
    #expect(model.notificationCenter !== NotificationCenter.default)
    let name = Notification.Name("checkout")
    let received = LockIsolated(0)
    let observer = model.notificationCenter.addObserver(forName: name, object: nil, queue: nil) {
      _ in received.withValue { $0 += 1 }
    }
    model.notificationCenter.post(name: name, object: nil)
    model.notificationCenter.removeObserver(observer)
    #expect(received.value == 1)
  }
}
