/// The context that decides which of a key's values is used: default (live), test or preview.
///
/// A container's context is chosen at run time, in this order:
///
/// 1. the container's explicit context (`DependencyValues(context: .test)`, or
///    `$0.context = .preview` inside
///    ``withDependencies(_:operation:)-((DependencyValues)->Void,_)``);
/// 2. the `TINY_DEPENDENCY_CONTEXT` environment variable: `default`, `live`, `test` or
///    `preview`, trimmed and case-insensitive; an empty value counts as unset, and any other
///    value is ignored with one warning on standard error;
/// 3. `XCODE_RUNNING_FOR_PREVIEWS=1`: preview;
/// 4. a test runner: test. The process must have the runner's own shape, which a user's
///    arguments cannot fake: on Linux, `argv[0]` is the `.xctest` executable that `swift test`
///    starts; on Apple platforms, `xctest` from Xcode with an `.xctest` bundle,
///    `swiftpm-testing-helper --test-bundle-path …`, a test bundle's executable, or an app that
///    loaded XCTest to host its tests (with the `XCTest*` variables). A process that a test
///    starts gets the default context unless its environment sets `TINY_DEPENDENCY_CONTEXT`;
/// 5. otherwise: default.
///
/// Steps 2 to 5 run once per process.
public enum DependencyContext: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// The live context: real implementations (``DependencyKey/defaultValue``).
  case `default`

  /// The test context: ``DependencyKey/testValue``.
  case test

  /// The preview context: ``DependencyKey/previewValue``.
  case preview

  /// The live context; another name for ``default``.
  public static var live: DependencyContext { .default }

  /// The context detected for this process, when no container chose one explicitly.
  public static var detected: DependencyContext { ContextDetection.process.context }

  /// Parses a context name as `TINY_DEPENDENCY_CONTEXT` does: `default`, `live`, `test` or
  /// `preview`, ignoring case and surrounding white space.
  ///
  /// - Parameter text: The name to parse.
  /// - Returns: The context, or nil when `text` names none.
  public init?(parsing text: some StringProtocol) {
    guard let context = ContextDetection.parse(Array(text.utf8)) else { return nil }
    self = context
  }

  /// The context's name: `default`, `test` or `preview`.
  public var description: String { rawValue }
}
