// swift-dependencies' face: its spellings, for a library or app that keeps them. The whole core
// is re-exported so that one import replaces `import Dependencies`.
@_exported public import TinyDependency

/// A key spelled as in swift-dependencies: its value outside tests and previews is `liveValue`.
///
/// It refines the core's ``TinyDependency/DependencyKey`` and supplies its `defaultValue`, so a
/// key declares `liveValue` and nothing else changes. A key that declares neither `liveValue`
/// nor `defaultValue` still does not compile.
///
/// ```swift
/// import TinyDependencyFace
///
/// struct NumberFactClient: DependencyKey {
///   var fetch: @Sendable (Int) async throws -> String
///   static let liveValue = NumberFactClient { number in "\(number) is a number" }
/// }
/// ```
///
/// In a file that imports this module and not TinyDependency, `DependencyKey` means this
/// protocol: Swift lets a module's declaration shadow one of a module it re-exports only where
/// every import of that module goes through it. A file that also writes `import TinyDependency`
/// finds `DependencyKey` ambiguous; drop that import (this module re-exports the core), or name
/// the protocol with its module: `TinyDependencyFace.DependencyKey`. The same holds for
/// ``DependencyContext`` and `\.context`.
public protocol DependencyKey: TinyDependency.DependencyKey {
  /// The type of the dependency's value, restated so that it is inferred from ``liveValue``.
  associatedtype Value

  /// The value outside tests and previews, built on first use.
  static var liveValue: Value { get }
}

extension DependencyKey {
  /// The live value, under the name the core reads.
  public static var defaultValue: Value { liveValue }
}
