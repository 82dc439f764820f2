// The compiled copy of the code block in Migrating-from-swift-dependencies.md, "Switching a
// library", that declares a key through the face. DocCArticlesTests checks it line for line.

import Testing
import TinyDependencyFace

struct SettingsStore: Sendable {
  var load: @Sendable (_ key: String) -> Int?
}

extension SettingsStore: DependencyKey {
  static let liveValue = SettingsStore { _ in nil }  // the live implementation: a file, say
  static let testValue = SettingsStore { _ in 0 }
}

@Suite("The face's key in the migration guide works as it says")
struct FaceMigrationExamples {
  @Test func aKeyWithALiveValueIsReadThroughTheFace() {
    #expect(DependencyValues.current[SettingsStore.self].load("count") == 0)
    withDependencies {
      $0.context = .default
    } operation: {
      #expect(DependencyValues.current[SettingsStore.self].load("count") == nil)
    }
  }
}
