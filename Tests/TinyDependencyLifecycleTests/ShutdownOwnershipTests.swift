import Testing
import TinyDependencyLifecycle

@testable import TinyDependency

@Suite("Shutdown closes each object the container made once, and nothing the user handed in")
struct ShutdownOwnershipTests {
  @Test func oneObjectReachedThroughTwoKeysIsShutDownOnce() async throws {
    let (values, _) = asyncContainer()
    try await values.prepare([InterfaceKey.self, ImplementationKey.self])
    let object = values[ImplementationKey.self]
    #expect(values[InterfaceKey.self] === object)
    try await values.shutdown()
    #expect(object.shutdownCount == 1)
  }

  @Test func aValueSetWithPrepareDependenciesIsNotShutDown() async throws {
    let (values, log) = asyncContainer()
    let handedIn = Resource("HandedIn", settings: values.asyncSettings)
    var prepared = DependencyValues(context: values.context)
    prepared[HandedInKey.self] = handedIn
    let site = SourceSite("App/Main.swift", "/App/Main.swift", 1, 1)
    _ = EntryPointRecord().apply(
      EntryPointRecord.changes(in: prepared),
      to: values.storage,
      at: site
    )
    #expect(values[HandedInKey.self] === handedIn)
    try await values.prepare([PoolKey.self])
    try await values.shutdown()
    #expect(handedIn.shutdownCount == 0)
    #expect(log.count("shutdown done Pool") == 1)
  }

  @Test func anOverrideIsNotShutDown() async throws {
    var (values, _) = asyncContainer()
    let handedIn = Resource("HandedIn", settings: values.asyncSettings)
    values[HandedInKey.self] = handedIn
    _ = values[HandedInKey.self]
    try await values.shutdown()
    #expect(handedIn.shutdownCount == 0)
  }
}
