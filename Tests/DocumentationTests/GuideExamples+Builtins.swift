// Compiled copies of the code blocks in section 13 of Examples.md. DocumentationTests checks that
// every ```swift block there appears in a GuideExamples+ file line for line; edit both together.

import Testing
import TinyDependency
import TinyDependencyBuiltins
import TinyDependencyTesting

// MARK: - 13. Built-in dependencies

/// Saves a draft one second after the last edit.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
actor DraftSaver {
  @Dependency(\.continuousClock) var clock
  private var pending: Task<Void, Never>?
  private(set) var saved: [String] = []

  func edit(_ text: String) {
    pending?.cancel()
    pending = Task {
      do {
        try await clock.sleep(for: .seconds(1))
      } catch {
        return  // a later edit cancelled this one
      }
      saved.append(text)
    }
  }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
@Test func draftIsSavedOneSecondAfterTheLastEdit() async {
  let clock = TestClock()
  let saver = withDependencies {
    $0.continuousClock = clock
  } operation: {
    DraftSaver()
  }
  await saver.edit("H")
  await saver.edit("Hi")
  await clock.waitForSleepers(1)
  await clock.advance(by: .milliseconds(999))
  #expect(await saver.saved.isEmpty)
  await clock.advance(by: .milliseconds(1))
  #expect(await saver.saved == ["Hi"])
}

struct Shuffler {
  @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator

  func shuffled(_ cards: [String]) -> [String] {
    withRandomNumberGenerator { generator in cards.shuffled(using: &generator) }
  }
}

@Test(.dependency(\.withRandomNumberGenerator, .seeded(7)))
func shufflingIsReproducible() {
  var expected = SeededRandomNumberGenerator(seed: 7)
  let cards = ["A", "B", "C", "D"]
  #expect(Shuffler().shuffled(cards) == cards.shuffled(using: &expected))
}
