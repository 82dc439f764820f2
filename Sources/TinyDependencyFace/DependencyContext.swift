public import TinyDependency

/// The context that decides which of a key's values is used, with swift-dependencies' cases:
/// live, preview or test.
///
/// In a file that imports this module (and not TinyDependency itself), `DependencyContext` and
/// `@Dependency(\.context)` mean this type, so a `switch` written for swift-dependencies is
/// exhaustive unchanged:
///
/// ```swift
/// @Dependency(\.context) var context
/// switch context {
/// case .live: return try DatabaseQueue(path: path)
/// case .preview, .test: return try DatabaseQueue()
/// }
/// ```
///
/// It is the core's ``TinyDependency/DependencyContext`` under other names: `.live` is the
/// core's `.default`.
public enum DependencyContext: Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// The live context: each key's `liveValue`.
  case live

  /// The preview context: each key's `previewValue`.
  case preview

  /// The test context: each key's `testValue`.
  case test

  /// The live context, under the core's name for it; another name for ``live``.
  public static var `default`: Self { .live }

  /// Creates the face's spelling of a context of the core.
  ///
  /// - Parameter context: The core's context.
  public init(_ context: TinyDependency.DependencyContext) {
    switch context {
    case .default: self = .live
    case .preview: self = .preview
    case .test: self = .test
    }
  }

  /// The same context as the core spells it, for the core's API.
  public var coreContext: TinyDependency.DependencyContext {
    switch self {
    case .live: .default
    case .preview: .preview
    case .test: .test
    }
  }

  /// The context's name as swift-dependencies spells it: `live`, `preview` or `test`.
  public var description: String {
    switch self {
    case .live: "live"
    case .preview: "preview"
    case .test: "test"
    }
  }
}

extension DependencyValues {
  /// The context this container builds values for, with swift-dependencies' cases.
  ///
  /// Setting it is setting the core's context: `$0.context = .live` in `withDependencies`.
  public var context: DependencyContext {
    get { DependencyContext(coreContext) }
    set { coreContext = newValue.coreContext }
  }
}
