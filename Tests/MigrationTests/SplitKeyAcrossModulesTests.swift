public import SplitKeyInterface
import Testing
public import TinyDependency

// The live module's half of the key that SplitKeyInterface declares: public, as a live module
// declares it.
extension InterfaceOnlyKey: DependencyKey {
  /// The live value.
  public static let defaultValue = "live value"
}

/// swift-dependencies reads a key's preview value through its `TestDependencyKey` conformance,
/// whose fallback the compiler picks where that conformance is declared: across two modules, the
/// test value; in one module (two files or one), the live value, as `SplitFlagKey` shows.
@Suite("A key split across two modules falls back to its test value in previews")
struct SplitKeyAcrossModulesTests {
  @Test func previewReadsTheTestValueThroughEitherModule() {
    let preview = DependencyValues(context: .preview)
    #expect(preview.interfaceOnly == "test value")
    #expect(preview[InterfaceOnlyKey.self] == "test value")
    #expect(interfaceRead(InterfaceOnlyKey.self, in: preview) == "test value")
  }

  @Test func liveAndTestContextsReadTheirOwnValues() {
    #expect(DependencyValues(context: .default).interfaceOnly == "live value")
    #expect(DependencyValues(context: .default)[InterfaceOnlyKey.self] == "live value")
    #expect(DependencyValues(context: .test).interfaceOnly == "test value")
  }

  @Test func aWrapperInThePreviewContextReadsTheTestValue() {
    withDependencies {
      $0.context = .preview
    } operation: {
      @Dependency(\.interfaceOnly) var value
      @Dependency(InterfaceOnlyKey.self) var byType
      #expect(value == "test value")
      #expect(byType == "test value")
    }
  }
}
