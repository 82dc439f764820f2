import Dispatch
import TestSubprocess
import Testing
import TinyDependency

/// A UI-bound service: it may only be made and used on the main actor.
@MainActor
final class Haptics {
  static var built = 0
  let style: String

  init(_ style: String) {
    dispatchPrecondition(condition: .onQueue(.main))
    Haptics.built += 1
    self.style = style
  }

  func tap() -> String { "tap (\(style))" }
}

enum HapticsKey: MainActorDependencyKey {
  static var defaultValue: Haptics { Haptics("live") }
  static var testValue: Haptics { Haptics("test") }
}

/// Falls back to its default in tests.
enum ToastsKey: MainActorDependencyKey {
  static var defaultValue: Haptics { Haptics("toasts") }
}

extension DependencyValues {
  @MainActor var haptics: Haptics {
    get { self[HapticsKey.self] }
    set { self[HapticsKey.self] = newValue }
  }
}

@MainActor
final class CheckoutModel {
  @Dependency(HapticsKey.self) var haptics

  func pay() -> String { haptics.tap() }
}

@Suite("Main-actor keys: built and read on the main actor")
struct MainActorDependencyKeyTests {
  // MARK: - On the main actor

  @MainActor
  @Test func valueIsBuiltOnTheMainActorOncePerContainer() {
    let values = DependencyValues(context: .test)
    let before = Haptics.built
    let first = values.haptics
    #expect(values.haptics === first)
    #expect(Haptics.built == before + 1)
    #expect(first.style == "test")
    #expect(DependencyValues(context: .default).haptics.style == "live")
    #expect(Haptics.built == before + 2)
    #expect(DependencyValues(context: .test)[ToastsKey.self].style == "toasts")
  }

  @MainActor
  @Test func mainActorCodeReadsAndOverridesSynchronously() {
    let model = CheckoutModel()
    #expect(model.pay() == "tap (test)")
    let scoped = withDependencies {
      $0.haptics = Haptics("scoped")
    } operation: {
      model.pay() + ", " + DependencyValues.current.haptics.tap()
    }
    #expect(scoped == "tap (scoped), tap (scoped)")
  }

  @MainActor
  @Test func modelMadeInAScopeKeepsIt() {
    let model = withDependencies {
      $0.haptics = Haptics("captured")
    } operation: {
      CheckoutModel()
    }
    #expect(model.pay() == "tap (captured)")
  }

  // MARK: - From elsewhere

  @Test func otherCodeAwaitsTheValue() async {
    let fromDetached = await Task.detached {
      let values = DependencyValues(context: .test)
      return await values[HapticsKey.self].style
    }.value
    #expect(fromDetached == "test")
    // Overriding is main-actor work too: the setter is the subscript's.
    let scopedValues = await MainActor.run {
      var values = DependencyValues(context: .test)
      values[HapticsKey.self] = Haptics("scoped")
      return values
    }
    let scoped = await withDependencies(scopedValues) {
      await DependencyValues.current[HapticsKey.self].style
    }
    #expect(scoped == "scoped")
  }

  #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test(.oneExitTestAtATime)
    func wrapperReadOffTheMainActorStopsNamingTheKey() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let wrapper = await MainActor.run { Dependency(HapticsKey.self) }
        let style = await Task.detached { wrapper.wrappedValue.style }.value
        print(style)
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("HapticsKey is a main-actor dependency (MainActorDependencyKey)"))
      #expect(message.contains("read off the main actor in the test context"))
      #expect(message.contains("`await DependencyValues.current[HapticsKey.self]`"))
    }

    @Test(.oneExitTestAtATime)
    func keyPathWrapperReadOffTheMainActorStopsToo() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        let wrapper = await MainActor.run { Dependency(\.haptics) }
        _ = await Task.detached { wrapper.wrappedValue }.value
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("HapticsKey is a main-actor dependency"))
    }

    @Test(.oneExitTestAtATime)
    func wrapperReadFromADispatchQueueStops() async throws {
      try await #require(processExitsWith: .failure) {
        let wrapper = await MainActor.run { Dependency(HapticsKey.self) }
        DispatchQueue.global().sync { _ = wrapper.wrappedValue }
      }
    }
  #endif
}
