import TinyDependency
import TinyDependencyFactories

/// Measures factory calls against what they replace: a closure key's closure called and the
/// product built by hand, and a shared value's read for a cached factory's hit.
@MainActor
func measureFactories(_ report: Report) {
  let reads = report.reads
  let model = FactoryModel()
  _ = model.makeByHand(1)
  report.record(
    "factory.closureKey",
    median(iterations: reads) { n in
      for index in 0..<n { consume(model.makeByHand(index)) }
    }
  )
  _ = model.make(1)
  report.record(
    "factory.plain",
    median(iterations: reads) { n in
      for index in 0..<n { consume(model.make(index)) }
    },
    baseline: "factory.closureKey"
  )
  _ = model.shared
  report.record(
    "factory.sharedRead",
    median(iterations: reads) { n in
      for _ in 0..<n { consume(model.shared) }
    }
  )
  _ = model.cached(1)
  report.record(
    "factory.cachedHit",
    median(iterations: reads) { n in
      for _ in 0..<n { consume(model.cached(1)) }
    },
    baseline: "factory.sharedRead"
  )
}

/// A factory's product, with identity: made by an allocation.
final class FactoryProduct: Sendable {
  let id: Int
  init(id: Int) { self.id = id }
}

/// A model that makes products through each form.
struct FactoryModel: Sendable {
  @Dependency(\.makeProductByHand) var makeByHand
  @Dependency(\.makeProduct) var make
  @Dependency(\.cachedProduct) var cached
  @Dependency(\.sharedProduct) var shared
}

private enum ClosureProductKey: DependencyKey {
  static var defaultValue: @Sendable (Int) -> FactoryProduct { { FactoryProduct(id: $0) } }
}

private enum ProductFactoryKey: DependencyKey {
  static var defaultValue: DependencyFactory<Int, FactoryProduct> {
    .init { FactoryProduct(id: $0) }
  }
}

private enum CachedProductFactoryKey: DependencyKey {
  static var defaultValue: DependencyFactory<Int, FactoryProduct> {
    .cached { FactoryProduct(id: $0) }
  }
}

private enum SharedProductKey: DependencyKey {
  static var defaultValue: FactoryProduct { FactoryProduct(id: 1) }
}

extension DependencyValues {
  var makeProductByHand: @Sendable (Int) -> FactoryProduct {
    get { self[ClosureProductKey.self] }
    set { self[ClosureProductKey.self] = newValue }
  }

  var makeProduct: DependencyFactory<Int, FactoryProduct> {
    get { self[ProductFactoryKey.self] }
    set { self[ProductFactoryKey.self] = newValue }
  }

  var cachedProduct: DependencyFactory<Int, FactoryProduct> {
    get { self[CachedProductFactoryKey.self] }
    set { self[CachedProductFactoryKey.self] = newValue }
  }

  var sharedProduct: FactoryProduct {
    get { self[SharedProductKey.self] }
    set { self[SharedProductKey.self] = newValue }
  }
}
