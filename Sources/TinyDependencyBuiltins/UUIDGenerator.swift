public import Foundation
public import TinyDependency

/// A dependency that makes UUIDs: `uuid()`.
///
/// ```swift
/// final class Store {
///   @Dependency(\.uuid) var uuid
///   func newID() -> UUID { uuid() }
/// }
///
/// withDependencies {
///   $0.uuid = .incrementing
/// } operation: {
///   // UUID(0), UUID(1), UUID(2), …
/// }
/// ```
///
/// The live value returns `UUID()`. The test value fails loudly: each call records an issue
/// naming `\.uuid` and returns the placeholder `UUID(0)`,
/// `00000000-0000-0000-0000-000000000000`. Previews use the live value.
public struct UUIDGenerator: Sendable {
  private let generate: @Sendable () -> UUID
  /// Whether this is the test value's placeholder, which reports each call where it is made.
  private var isPlaceholder = false

  /// Creates a generator that calls `generate` for every UUID.
  ///
  /// - Parameter generate: Returns a UUID.
  public init(_ generate: @escaping @Sendable () -> UUID) {
    self.generate = generate
  }

  /// The test value: each call records an issue at the call and returns `UUID(0)`.
  static var placeholder: Self {
    var made = Self { UUID(0) }
    made.isPlaceholder = true
    return made
  }

  /// A generator that always returns `uuid`.
  ///
  /// - Parameter uuid: The UUID to return.
  /// - Returns: The generator.
  public static func constant(_ uuid: UUID) -> Self {
    Self { uuid }
  }

  /// A generator of `UUID(0)`, `UUID(1)`, `UUID(2)`, …; each value counts on its own.
  ///
  /// The count belongs to the value, wherever it is called: an object made in a test that
  /// calls it from a `Task.detached` or a Dispatch callback continues the test's sequence. The
  /// traits of TinyDependencyTesting evaluate `.incrementing` anew for each test case, as in
  /// `@Suite(.dependency(\.uuid, .incrementing))`, so each starts at `UUID(0)`; one value set
  /// on two containers shares one count.
  public static var incrementing: Self {
    let counter = Counter()
    return Self { UUID(counter.next()) }
  }

  /// Returns a UUID.
  ///
  /// - Parameters:
  ///   - fileID: The file ID of the caller, where the placeholder's issue is recorded.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  ///   - column: The column of the caller.
  /// - Returns: The UUID.
  public func callAsFunction(
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
  ) -> UUID {
    if isPlaceholder {
      Placeholder.report(
        "uuid",
        returned: "UUID(0)",
        fix: "`$0.uuid = .incrementing` or `$0.uuid = .constant(UUID(0))`",
        at: SourceSite(fileID, filePath, line, column)
      )
    }
    return generate()
  }
}

/// A counter from 0; `@unchecked Sendable`: its value is guarded by its lock.
private final class Counter: @unchecked Sendable {
  private let value = Locked(0)

  func next() -> Int {
    value.withLock { value in
      defer { value += 1 }
      return value
    }
  }
}

extension DependencyValues {
  /// Makes UUIDs: `UUID()` live; in tests, override it or each call records an issue.
  public var uuid: UUIDGenerator {
    get { self[UUIDGeneratorKey.self] }
    set { self[UUIDGeneratorKey.self] = newValue }
  }
}

/// The key of ``DependencyValues/uuid``.
enum UUIDGeneratorKey: DependencyKey, _ReportsItsOwnUses {
  static var defaultValue: UUIDGenerator { UUIDGenerator { UUID() } }
  static var previewValue: UUIDGenerator { defaultValue }
  static var testValue: UUIDGenerator {
    noteTestValueIsPlaceholder()
    return .placeholder
  }
}
