import Testing
import TinyDependencyConcurrency
import TinyDependencyFaceTestSupport

// Code as a library built on swift-dependencies writes it, with `import Dependencies` and
// `import DependenciesTestSupport` swapped for the face's modules, and `import
// TinyDependencyConcurrency` for the helpers that `Dependencies` re-exports from
// ConcurrencyExtras. Nothing else is changed: each test compiles only when the face offers the
// spelling.

private struct DatabaseUnavailable: Error {}

/// A database connection, as a library's `defaultDatabase` is.
private struct Database: Sendable {
  var path: String
}

private func makeDatabase(path: String = ":memory:") throws -> Database {
  if path.isEmpty { throw DatabaseUnavailable() }
  return Database(path: path)
}

private enum DefaultDatabaseKey: DependencyKey {
  static var liveValue: Database { Database(path: "live.sqlite") }
  static var testValue: Database {
    if shouldReportUnimplemented {
      reportIssue("A blank, in-memory database is being used. Override \\.defaultDatabase.")
    }
    return Database(path: "blank")
  }
}

extension DependencyValues {
  fileprivate var defaultDatabase: Database {
    get { self[DefaultDatabaseKey.self] }
    set { self[DefaultDatabaseKey.self] = newValue }
  }
}

/// Chooses a database per context, as libraries built on swift-dependencies do.
private func databasePath() -> String {
  @Dependency(\.context) var context
  switch context {
  case .live: return "live.sqlite"
  case .preview: return "preview.sqlite"
  case .test: return ":memory:"
  }
}

@Suite("swift-dependencies' spelling compiles and works on the face")
struct SwiftDependenciesSpellingTests {
  // MARK: - Throwing values in traits (issue 47, item 1)

  @Suite(.dependency(\.defaultDatabase, try makeDatabase()))
  struct ThrowingTraitValue {
    @Test func theSuitesValueIsUsed() {
      @Dependency(\.defaultDatabase) var database
      #expect(database.path == ":memory:")
    }

    @Test(.dependency(\.defaultDatabase, try makeDatabase(path: "test.sqlite")))
    func theTestsValueIsUsed() {
      @Dependency(\.defaultDatabase) var database
      #expect(database.path == "test.sqlite")
    }
  }

  // MARK: - A switch over the context (item 2)

  @Test func aSwitchOverTheContextNamesItsCasesAsThere() {
    #expect(databasePath() == ":memory:")
    withDependencies {
      $0.context = .live
    } operation: {
      #expect(databasePath() == "live.sqlite")
    }
    withDependencies {
      $0.context = .preview
    } operation: {
      #expect(databasePath() == "preview.sqlite")
    }
  }

  @Test func theContextIsTheContainersContext() {
    @Dependency(\.context) var context
    #expect(context == .test)
    let live = withDependencies {
      $0 = .live
    } operation: {
      DependencyValues.current.context
    }
    #expect(live == .live)
    #expect(DependencyContext.allCases == [.live, .preview, .test])
  }

  // MARK: - shouldReportUnimplemented (item 3)

  @Test func aTestValueReadWithoutAnOverrideReports() {
    withKnownIssue {
      @Dependency(\.defaultDatabase) var database
      #expect(database.path == "blank")
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("A blank, in-memory database") }
    }
  }

  @Test(.dependency(\.defaultDatabase, Database(path: "trait.sqlite")))
  func aKeyOverriddenByATraitDoesNotReport() {
    @Dependency(\.defaultDatabase) var database
    #expect(database.path == "trait.sqlite")
  }

  @Test func aKeyOverriddenByWithDependenciesDoesNotReport() {
    withDependencies {
      $0.defaultDatabase = Database(path: "scoped.sqlite")
    } operation: {
      @Dependency(\.defaultDatabase) var database
      #expect(database.path == "scoped.sqlite")
    }
  }

  @Test func shouldReportUnimplementedIsFalseWhileOverridesApply() {
    #expect(DefaultDatabaseKey.shouldReportUnimplemented)
    withDependencies {
      #expect(!DefaultDatabaseKey.shouldReportUnimplemented)
      $0.defaultDatabase = Database(path: "x")
    } operation: {
      #expect(DefaultDatabaseKey.shouldReportUnimplemented)
    }
  }

  // MARK: - LockIsolated and friends (item 4)

  @Test func lockIsolatedRecordsCallsAsInATestThere() async {
    let paths = LockIsolated<[String]>([])
    let opened = ActorIsolated(0)
    let box = UncheckedSendable(Database(path: "unchecked"))
    await withDependencies {
      $0.defaultDatabase = Database(path: "recorded.sqlite")
    } operation: {
      @Dependency(\.defaultDatabase) var database
      paths.withValue { $0.append(database.path) }
      await opened.withValue { $0 += 1 }
    }
    #expect(paths.value == ["recorded.sqlite"])
    #expect(await opened.value == 1)
    #expect(box.value.path == "unchecked")
  }
}
