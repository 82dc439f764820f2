import Testing

@testable import TinyDependency
@testable import TinyDependencyTesting

/// The core finds the testing product's router by its mangled name: a rename of the type or its
/// module must fail here, not silently send every issue to standard error.
@Suite("The core finds the testing product's router by name")
struct IssueRouterDiscoveryTests {
  @available(macOS 11, iOS 14, tvOS 14, watchOS 7, *)
  @Test func theNameTheCoreLooksUpIsTheRoutersMangledName() {
    #expect(_mangledTypeName(IssueRouter.self) == IssueReporter.routerName)
  }

  @Test func theCoreResolvesTheRouterAndItsTestRoots() {
    #expect(IssueReporter.router == IssueRouter.self)
    #expect(UnboundRoots.provider == IssueRouter.self)
  }
}
