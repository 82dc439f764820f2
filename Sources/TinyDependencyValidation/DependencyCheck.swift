public import TinyDependency
internal import TinyDependencyGraph

/// Checks a set of keys before the app runs: the checks of the validator, without a test
/// library, and the command-line check that prints the graph and exits with a status for CI.
///
/// Give the check an executable target of its own, next to the app:
///
/// ```swift
/// // Sources/AppGraph/main.swift
/// import TinyDependencyValidation
/// import AppFeatures
///
/// DependencyCheck.main(keys: [APIClientKey.self, DatabaseKey.self, CartKey.self])
/// // or, to check every key in the binary: DependencyCheck.main()
/// ```
///
/// and run it with the package's command plugin:
///
/// ```text
/// swift package dependency-graph --product AppGraph
/// swift package dependency-graph --product AppGraph --check dependency-graph.json
/// ```
///
/// The check traces each key in a fresh container in the test context, as
/// ``validate(_:previews:configure:)`` does, so it builds test values, never live ones, and
/// reports keys without a test value of their own, test values whose build reaches a live
/// value, cycles with their paths, and inputs that nothing set. ``run(_:keys:mainActorKeys:configure:)``
/// returns what it would print and its exit status, for tests.
///
/// Exit status: 0 when nothing was found, 1 with findings (each on a line of its own on
/// standard error: kind, key, path, fix), 2 on a usage error, 3 when `--check` finds that the
/// graph differs from the file (the added and removed edges are printed). Findings win over
/// a difference: a run with both exits 1 and prints both.
public enum DependencyCheck {
  /// Validates `keys` in the test context and returns the report.
  ///
  /// Each key resolves in a fresh container in the test context with
  /// ``/TinyDependencyGraph/DependencyGraph/trace(_:context:configure:)``: a resolution that
  /// reaches a key without a test value of its own (or, checking previews, without a preview
  /// value) records the key, with the path that led there, and stops before its
  /// `defaultValue` runs.
  ///
  /// - Parameters:
  ///   - keys: The keys to check.
  ///   - previews: Also report keys without a `previewValue` of their own.
  ///   - configure: Sets values (inputs, say) on each fresh container before it resolves. It
  ///     runs on the tracing thread while the caller waits, so a cycle or an unset input that a
  ///     read in it meets is a finding, not a hang.
  /// - Returns: One finding per problem, and the traced graph.
  public static func validate(
    _ keys: [any DependencyKey.Type],
    previews: Bool = false,
    configure: @escaping (inout DependencyValues) -> Void = { _ in }
  ) -> DependencyValidationReport {
    let traced = DependencyGraph.traceDetails(
      keys,
      context: .test,
      stopsAtLiveFallbacks: true,
      configure: configure
    )
    let preview =
      previews
      ? DependencyGraph.traceDetails(
        keys,
        context: .preview,
        stopsAtLiveFallbacks: true,
        configure: configure
      ) : nil
    return report(keys, traced: traced, preview: preview)
  }

  /// Validates `keys`, and the main-actor keys `mainActorKeys` on the main actor, and returns
  /// the report; findings name main-actor keys by their own names.
  ///
  /// A main-actor key's build runs on the main actor, where nothing can stop it halfway: a
  /// main-actor key without a test value of its own is reported, and its live default is built
  /// there, as a test reading it would build it. A cycle or an unset input met on the main
  /// actor stops the process with a message naming the keys.
  ///
  /// - Parameters:
  ///   - keys: The keys to check, traced as by ``validate(_:previews:configure:)``.
  ///   - mainActorKeys: The main-actor keys to check.
  ///   - previews: Also report keys without a `previewValue` of their own.
  ///   - configure: Sets values (inputs, say) on each fresh container before it resolves: on
  ///     the tracing thread for a plain key, on the main actor for a main-actor key.
  /// - Returns: One finding per problem, and the traced graph.
  @MainActor
  public static func validate(
    _ keys: [any DependencyKey.Type] = [],
    mainActorKeys: [any MainActorDependencyKey.Type],
    previews: Bool = false,
    configure: @escaping @Sendable (inout DependencyValues) -> Void = { _ in }
  ) -> DependencyValidationReport {
    let stored = mainActorKeys.map { $0.storageKey }
    let traced = trace(keys, mainActorKeys: stored, context: .test, configure: configure)
    let preview =
      previews ? trace(keys, mainActorKeys: stored, context: .preview, configure: configure) : nil
    return report(keys + stored, traced: traced, preview: preview)
  }

  /// Traces `keys`, and the storage keys of main-actor keys on the main actor, in `context`;
  /// in the test and preview contexts a resolution stops before a live value is built.
  @MainActor
  static func trace(
    _ keys: [any DependencyKey.Type],
    mainActorKeys: [any DependencyKey.Type],
    context: DependencyContext,
    configure: @escaping @Sendable (inout DependencyValues) -> Void
  ) -> DependencyGraph.TraceDetails {
    DependencyGraph.traceDetails(
      keys,
      mainActorKeys: mainActorKeys,
      context: context,
      stopsAtLiveFallbacks: context != .default,
      configure: configure
    )
  }

  /// The report of the traces of `keys` in the test context and, if traced, in the preview one.
  static func report(
    _ keys: [any DependencyKey.Type],
    traced: DependencyGraph.TraceDetails,
    preview: DependencyGraph.TraceDetails?
  ) -> DependencyValidationReport {
    let input = CheckInput(keys: keys, traced: traced, preview: preview)
    return DependencyValidationReport(
      keyCount: keys.count,
      findings: checks.flatMap { $0(input) }.sorted(),
      graph: traced.graph
    )
  }
}
