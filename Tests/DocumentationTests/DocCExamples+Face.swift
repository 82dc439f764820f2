// The compiled copies of the code blocks in Migrating-from-swift-dependencies.md, "Switching a
// library", that declare keys through the face. DocCArticlesTests checks them line for line.

import Testing
import TinyDependencyFace

struct SettingsStore: Sendable {
  var load: @Sendable (_ key: String) -> Int?
}

extension SettingsStore: DependencyKey {
  static let liveValue = SettingsStore { _ in nil }  // the live implementation: a file, say
  static let testValue = SettingsStore { _ in 0 }
}

struct LogStore: Sendable {
  var path: String
}

extension LogStore: DependencyKey {
  static var liveValue: LogStore {
    @Dependency(\.context) var context
    switch context {
    case .live: return LogStore(path: "app.log")
    case .preview: return LogStore(path: "preview.log")
    case .test: return LogStore(path: "/dev/null")
    }
  }
  static var testValue: LogStore {
    if shouldReportUnimplemented {
      reportIssue("A discarding log store is being used. Override \\.logStore in the test.")
    }
    return LogStore(path: "/dev/null")
  }
}

extension DependencyValues {
  var logStore: LogStore {
    get { self[LogStore.self] }
    set { self[LogStore.self] = newValue }
  }
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

  @Test func aKeyChoosesItsValueByTheFacesContext() {
    withDependencies {
      $0.context = .live
    } operation: {
      #expect(DependencyValues.current.logStore.path == "app.log")
    }
    withDependencies {
      $0.context = .preview
    } operation: {
      #expect(DependencyValues.current.logStore.path == "preview.log")
    }
  }

  @Test func aTestValueReportsOnlyWhenTheTestDidNotOverrideTheKey() {
    withKnownIssue {
      #expect(DependencyValues.current.logStore.path == "/dev/null")
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("Override \\.logStore in the test") }
    }
    withDependencies {
      $0.logStore = LogStore(path: "test.log")
    } operation: {
      #expect(DependencyValues.current.logStore.path == "test.log")
    }
  }
}
