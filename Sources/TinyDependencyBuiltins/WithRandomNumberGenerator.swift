public import TinyDependency

/// A dependency that lends a random number generator to a closure.
///
/// ```swift
/// @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator
///
/// let roll = withRandomNumberGenerator { generator in
///   Int.random(in: 1...6, using: &generator)
/// }
/// ```
///
/// The live value uses `SystemRandomNumberGenerator`. Give tests a reproducible sequence with
/// ``seeded(_:)`` or ``init(_:)``:
///
/// ```swift
/// @Test(.dependency(\.withRandomNumberGenerator, .seeded(42)))
/// func rollsAreReproducible() { … }
/// ```
///
/// Such a generator's state belongs to the value: calls from a `Task.detached` or a Dispatch
/// callback continue the sequence of the test that set it. The traits of TinyDependencyTesting
/// evaluate `.seeded(42)` anew for each test case, so every case starts from the seed; one value
/// set on two containers shares one sequence. Calls from several tasks share one sequence too;
/// their order decides who gets which numbers.
///
/// The test value fails loudly: each call records an issue naming `\.withRandomNumberGenerator`
/// and lends a placeholder, `SeededRandomNumberGenerator(seed: 0)`, fresh in each container.
///
/// No lock is held while the closure runs; the generator it is lent takes the lock only to
/// draw each number.
public struct WithRandomNumberGenerator: Sendable {
  private let source: Source

  private enum Source: Sendable {
    case system
    case shared(GeneratorState)
    /// The test value: records an issue, then lends its generator.
    case placeholder(GeneratorState)
  }

  /// Creates a dependency that lends `generator`; the dependency keeps its state.
  ///
  /// - Parameter generator: The generator, as the first call sees it.
  public init(_ generator: some RandomNumberGenerator & Sendable) {
    source = .shared(GeneratorState(generator))
  }

  private init(source: Source) {
    self.source = source
  }

  /// A dependency that lends a ``SeededRandomNumberGenerator`` made from `seed`.
  ///
  /// - Parameter seed: The seed; equal seeds give equal sequences.
  /// - Returns: The dependency.
  public static func seeded(_ seed: UInt64) -> Self {
    Self(SeededRandomNumberGenerator(seed: seed))
  }

  /// The system's generator, for the live value.
  static var system: Self { Self(source: .system) }

  /// The test value: fails loudly, then lends `SeededRandomNumberGenerator(seed: 0)`.
  static var placeholder: Self {
    Self(source: .placeholder(GeneratorState(SeededRandomNumberGenerator(seed: 0))))
  }

  /// Runs `work` with the generator.
  ///
  /// - Parameters:
  ///   - fileID: The file ID of the caller, where the placeholder's issue is recorded.
  ///   - filePath: The file path of the caller.
  ///   - line: The line of the caller.
  ///   - column: The column of the caller.
  ///   - work: Draws random values from the generator it is given.
  /// - Returns: What `work` returns.
  /// - Throws: What `work` throws.
  public func callAsFunction<R>(
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column,
    _ work: (inout any RandomNumberGenerator & Sendable) throws -> R
  ) rethrows -> R {
    switch source {
    case .system:
      var generator: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()
      return try work(&generator)
    case .shared(let state), .placeholder(let state):
      if case .placeholder = source {
        Placeholder.report(
          "withRandomNumberGenerator",
          returned: "a SeededRandomNumberGenerator(seed: 0)",
          fix: "`$0.withRandomNumberGenerator = .seeded(42)`",
          at: SourceSite(fileID, filePath, line, column)
        )
      }
      var generator: any RandomNumberGenerator & Sendable = LockedDraw(state: state)
      return try work(&generator)
    }
  }
}

/// The generator of one value; `@unchecked Sendable`: it is guarded by its lock.
private final class GeneratorState: @unchecked Sendable {
  let generator: Locked<any RandomNumberGenerator & Sendable>
  init(_ initial: any RandomNumberGenerator & Sendable) { generator = Locked(initial) }
}

/// Draws each number from a value's generator with its lock held for that draw only.
private struct LockedDraw: RandomNumberGenerator, Sendable {
  let state: GeneratorState

  mutating func next() -> UInt64 {
    state.generator.withLock { $0.next() }
  }
}

extension DependencyValues {
  /// Lends a random number generator: the system's live; in tests, override it (for example
  /// with ``WithRandomNumberGenerator/seeded(_:)``) or each call records an issue.
  public var withRandomNumberGenerator: WithRandomNumberGenerator {
    get { self[WithRandomNumberGeneratorKey.self] }
    set { self[WithRandomNumberGeneratorKey.self] = newValue }
  }
}

/// The key of ``DependencyValues/withRandomNumberGenerator``.
enum WithRandomNumberGeneratorKey: DependencyKey, _ReportsItsOwnUses {
  static var defaultValue: WithRandomNumberGenerator { .system }
  static var previewValue: WithRandomNumberGenerator { defaultValue }
  static var testValue: WithRandomNumberGenerator {
    noteTestValueIsPlaceholder()
    return .placeholder
  }
}
