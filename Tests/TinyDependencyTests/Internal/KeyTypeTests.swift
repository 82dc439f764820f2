import Testing

@testable import TinyDependency

enum KeyTypeProbeKey: DependencyKey {
  static var defaultValue: Int { 0 }
}

enum GenericKeyTypeProbeKey<Tag>: DependencyKey {
  static var defaultValue: Int { 0 }
}

/// `KeyType(identifiedBy:)` turns an `ObjectIdentifier` back into the key it was made from: safe
/// because every identifier a container stores is made from a key's metatype, and
/// `ObjectIdentifier(_: Any.Type)` keeps the metatype's address as its one stored field (the
/// type is `@frozen`, its layout part of the standard library's ABI).
@Suite("A key's identifier names the key it was made from")
struct KeyTypeTests {
  @Test(arguments: [
    KeyTypeProbeKey.self as any DependencyKey.Type,
    GenericKeyTypeProbeKey<Int>.self,
    GenericKeyTypeProbeKey<GenericKeyTypeProbeKey<String>>.self,
  ])
  func anIdentifierGivesItsKeyBack(_ key: any DependencyKey.Type) {
    let named = KeyType(identifiedBy: ObjectIdentifier(key))
    #expect(ObjectIdentifier(named.type) == ObjectIdentifier(key))
    #expect(named == KeyType(key))
    #expect(named.name == _typeName(key, qualified: false))
  }

  @Test func anIdentifierIsOneMetatypeWide() {
    #expect(MemoryLayout<ObjectIdentifier>.size == MemoryLayout<Any.Type>.size)
  }
}
