// A test suite written the way users of the original TinyDependency wrote theirs: protocol
// existentials without `any`, a private key, an internal registration, `@testable import`.
// It must compile and pass unchanged, in debug and in release builds. This target is built
// without the upcoming-feature flags the other targets use, as a user's target would be.

import Testing

@testable import TinyDependency

protocol Logger: Sendable {
  func log(_ message: String)
}

struct ProductionLogger: Logger {
  func log(_ message: String) { print("[Production] \(message)") }
}

struct TestLogger: Logger {
  func log(_ message: String) { print("[Test] \(message)") }
}

struct MockLogger: Logger {
  func log(_ message: String) { print("[Mock] \(message)") }
}

private struct LoggerKey: DependencyKey {
  static let defaultValue: Logger = ProductionLogger()
  static let testValue: Logger = TestLogger()
  static let previewValue: Logger = TestLogger()
}

extension DependencyValues {
  var logger: Logger {
    get { self[LoggerKey.self] }
    set { self[LoggerKey.self] = newValue }
  }
}

@Suite("A suite written for the original TinyDependency")
struct OriginalSuiteTests {
  @Test func defaultValueInTestsIsTheTestValue() {
    let logger = DependencyValues.current.logger
    #expect(logger is TestLogger)
  }

  @Test func withDependenciesOverridesTemporarily() {
    #expect(DependencyValues.current.logger is TestLogger)
    withDependencies {
      $0.logger = MockLogger()
    } operation: {
      #expect(DependencyValues.current.logger is MockLogger)
    }
    #expect(DependencyValues.current.logger is TestLogger)
  }

  @Test func propertyWrapperReadsTheScope() {
    class Service {
      @Dependency(\.logger) var logger

      func loggerType() -> String {
        String(describing: type(of: logger))
      }
    }

    let service = Service()
    #expect(service.loggerType().contains("TestLogger"))

    withDependencies {
      $0.logger = MockLogger()
    } operation: {
      let mocked = Service()
      #expect(mocked.loggerType().contains("MockLogger"))
    }
  }

  @Test func taskGroupChildrenInheritTheScope() async {
    await withDependencies {
      $0.logger = MockLogger()
    } operation: {
      await withTaskGroup(of: Bool.self) { group in
        for _ in 0..<10 {
          group.addTask {
            DependencyValues.current.logger is MockLogger
          }
        }
        for await result in group {
          #expect(result == true)
        }
      }
    }
  }

  @Test func nestedScopesRestoreTheOuterOne() {
    withDependencies {
      $0.logger = ProductionLogger()
    } operation: {
      #expect(DependencyValues.current.logger is ProductionLogger)
      withDependencies {
        $0.logger = MockLogger()
      } operation: {
        #expect(DependencyValues.current.logger is MockLogger)
      }
      #expect(DependencyValues.current.logger is ProductionLogger)
    }
  }

  @Test func sendableUpdateClosuresStillCompile() async {
    let update: @Sendable (inout DependencyValues) -> Void = { $0.logger = MockLogger() }
    let isMock = await withDependencies(update) {
      await Task.yield()
      return DependencyValues.current.logger is MockLogger
    }
    #expect(isMock)
  }
}
