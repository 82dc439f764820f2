// A test file as a library built on swift-dependencies writes it, unchanged: its imports are
// the shims'.
import Dependencies
import DependenciesTestSupport
import Testing

struct DatabaseUnavailable: Error {}

struct Database: Sendable {
  var path: String
}

func makeDatabase(path: String = ":memory:") throws -> Database {
  if path.isEmpty { throw DatabaseUnavailable() }
  return Database(path: path)
}

enum DefaultDatabaseKey: DependencyKey {
  static var liveValue: Database {
    @Dependency(\.context) var context
    switch context {
    case .live: return Database(path: "live.sqlite")
    case .preview: return Database(path: "preview.sqlite")
    case .test: return Database(path: ":memory:")
    }
  }
  static var testValue: Database {
    if shouldReportUnimplemented {
      reportIssue("A blank, in-memory database is being used.")
    }
    return Database(path: "blank")
  }
}

extension DependencyValues {
  var defaultDatabase: Database {
    get { self[DefaultDatabaseKey.self] }
    set { self[DefaultDatabaseKey.self] = newValue }
  }
}

@Suite(.dependency(\.defaultDatabase, try makeDatabase()))
struct ShimmedTests {
  @Test func theTraitsThrowingValueIsUsed() {
    @Dependency(\.defaultDatabase) var database
    #expect(database.path == ":memory:")
  }

  @Test func lockIsolatedComesWithImportDependencies() {
    let paths = LockIsolated<[String]>([])
    @Dependency(\.defaultDatabase) var database
    paths.withValue { $0.append(database.path) }
    #expect(paths.value == [":memory:"])
  }

  @Test func theContextSwitchCompilesAsThere() {
    withDependencies {
      $0.context = .preview
    } operation: {
      #expect(DefaultDatabaseKey.liveValue.path == "preview.sqlite")
    }
  }

  @Test func anUnoverriddenTestValueReports() {
    withDependencies {
      $0 = .test
    } operation: {
      withKnownIssue {
        @Dependency(\.defaultDatabase) var database
        #expect(database.path == "blank")
      }
    }
  }
}
