import Testing

@testable import TinyDependency

@Suite("Declaring keys")
struct DependencyKeyTests {
  @Test func testAndPreviewFallBackToDefault() {
    #expect(DefaultOnlyKey.testValue == "default only")
    #expect(DefaultOnlyKey.previewValue == "default only")
    #expect(DependencyValues(context: .test)[DefaultOnlyKey.self] == "default only")
  }

  @Test func declaredValuesAreUsedForTheirContext() {
    #expect(ContextNameKey.value(for: .default) == "live")
    #expect(ContextNameKey.value(for: .test) == "test")
    #expect(ContextNameKey.value(for: .preview) == "preview")
  }

  @Test func keysAreSharedUnlessTheyOptOut() {
    #expect(DefaultOnlyKey.lifetime == .shared)
    #expect(TransientServiceKey.lifetime == .transient)
    #expect("\(DependencyLifetime.shared) \(DependencyLifetime.transient)" == "shared transient")
  }

  @Test func debugNamesAreShortAndReadable() {
    #expect(DefaultOnlyKey.debugName == "DefaultOnlyKey")
    #expect(Nested.InnerKey.debugName == "InnerKey")
  }

  @Test func genericKeysAreDistinctPerArgument() {
    var values = DependencyValues(context: .default)
    values[GenericKey<Int>.self] = "overridden"
    #expect(values[GenericKey<Int>.self] == "overridden")
    #expect(values[GenericKey<String>.self] == "String")
  }

  enum Nested {
    enum InnerKey: DependencyKey {
      static let defaultValue = 0
    }
  }
}

enum GenericKey<T: Sendable>: DependencyKey {
  static var defaultValue: String { "\(T.self)" }
}
