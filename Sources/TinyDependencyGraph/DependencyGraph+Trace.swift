public import TinyDependency

// MARK: - Obtaining a graph

extension DependencyValues {
  /// The graph of every value this container has built so far (or shares with the scopes it
  /// derives from), with the keys each build read.
  public var graph: DependencyGraph {
    DependencyGraph(
      context: context,
      // A factory's products read more than its own build did: what they read, once one was
      // made, are the factory key's edges too.
      builds: builtKeysWithTheirReads.map { built in
        let made = FactoryReads.reads(of: built.key).filter { !built.reads.contains($0) }
        return (built.key, built.reads + made)
      },
      configured: self
    )
  }
}

extension DependencyGraph {
  /// Resolves each key in a fresh container and returns the graph of everything that built.
  ///
  /// Unlike a normal read, a cycle or an unset input does not stop the process: the resolution
  /// that meets one stops there, the problem shows in ``cycles`` or ``missingInputs``, and
  /// tracing goes on with the next key in a new container. A resolution still running after a
  /// minute (blocked on a lock, say) is left behind, and tracing goes on without it. Each key
  /// resolves on a thread of its own; a thread that met a problem ends there, and what it was
  /// building is kept for the rest of the process, so trace from tests and checks rather than
  /// from a running app.
  ///
  /// `configure` runs on that thread as well, before the key resolves, while the caller waits:
  /// a read in it that meets a cycle or an unset input is recorded like any other. The minute
  /// counts from the end of `configure`; a `configure` that blocks is waited for, with a line
  /// on standard error each minute naming the key.
  ///
  /// - Parameters:
  ///   - keys: The keys to resolve.
  ///   - context: The context to build values for.
  ///   - configure: Sets values (inputs, say) on each fresh container before it resolves; it
  ///     runs on the tracing thread, never at the same time as the caller.
  /// - Returns: The union of the keys' graphs.
  public static func trace(
    _ keys: [any DependencyKey.Type],
    context: DependencyContext = .test,
    configure: @escaping (inout DependencyValues) -> Void = { _ in }
  ) -> DependencyGraph {
    traceDetails(keys, context: context, configure: configure).graph
  }

  /// What a trace found: the graph, and the keys whose value for the context was the
  /// protocol's fallback to their default value.
  package struct TraceDetails: Sendable {
    package let graph: DependencyGraph
    package let fellBack: [Node]
    /// Keys whose resolution had not finished after ``traceTimeout`` seconds.
    package let stalled: [Node]
    /// The first trace's container as `configure` left it (what was contributed and registered
    /// there); nil if `configure` never returned.
    package var configured: DependencyValues? { traces.configured }
    /// What the graph was made from, to add more traces to.
    fileprivate let traces: Traces
  }

  /// How long a trace waits for one key's resolution before it reports it stalled and goes on.
  package static let traceTimeout = 60.0

  /// Traces like ``trace(_:context:configure:)`` and also reports the keys that fell back to
  /// their default value (the live one, in the test context).
  ///
  /// With `stopsAtLiveFallbacks`, a resolution that reaches a key's fallback stops there, as at
  /// an unset input, before the live value is built: the key is reported, the live code never
  /// runs, and what the resolution would have read after it is not traced.
  package static func traceDetails(
    _ keys: [any DependencyKey.Type],
    context: DependencyContext,
    stopsAtLiveFallbacks: Bool = false,
    configure: @escaping (inout DependencyValues) -> Void
  ) -> TraceDetails {
    var traces = Traces()
    let configure = Configure(body: configure)
    for key in keys {
      let recorder = TraceRecorder(stopsAtLiveFallbacks: stopsAtLiveFallbacks)
      let traced = KeyType(key)
      // `configure` runs on the tracing thread too: a read there that meets a cycle or an
      // unset input ends that thread, not the caller's.
      TraceThreads.runOnNewThread {
        var values = DependencyValues(context: context, observer: recorder)
        configure.body(&values)
        recorder.finishConfiguring(values)
        values.resolveForTrace(traced.type)
        recorder.finish()
      }
      let stopped = recorder.waitUntilDone(timeout: traceTimeout, key: traced.type)
      traces.add(traced, recorder.recordedBuilds, stopped)
      if traces.configured == nil { traces.configured = recorder.configured }
    }
    return traces.details(context: context)
  }

  /// Traces `keys` like ``traceDetails(_:context:stopsAtLiveFallbacks:configure:)``, and the
  /// storage keys of main-actor keys (`MainActorDependencyKey.storageKey`) on the main actor,
  /// in this call: their builds run there, where nothing may park.
  ///
  /// On the main actor a live fallback is recorded and not stopped at: the main-actor build
  /// goes on with the live default. A cycle or an unset input met there stops the process with
  /// a message naming the keys.
  @MainActor
  package static func traceDetails(
    _ keys: [any DependencyKey.Type],
    mainActorKeys: [any DependencyKey.Type],
    context: DependencyContext,
    stopsAtLiveFallbacks: Bool = false,
    configure: @escaping (inout DependencyValues) -> Void
  ) -> TraceDetails {
    let plain = traceDetails(
      keys,
      context: context,
      stopsAtLiveFallbacks: stopsAtLiveFallbacks,
      configure: configure
    )
    var traces = plain.traces
    for key in mainActorKeys {
      let recorder = TraceRecorder(stopsAtLiveFallbacks: false, parks: false)
      var values = DependencyValues(context: context, observer: recorder)
      configure(&values)
      if traces.configured == nil { traces.configured = values }
      values.resolveForTrace(key)
      traces.add(KeyType(key), recorder.recordedBuilds, ([], [], false))
    }
    return traces.details(context: context)
  }

  /// The node of `key`, if the graph has it.
  package func node(for key: any DependencyKey.Type) -> Node? {
    nodes.first { $0.key.id == ObjectIdentifier(key) }
  }
}

/// What the traces of a set of keys recorded, key by key.
private struct Traces: Sendable {
  var builds: [(key: KeyType, reads: [KeyType])] = []
  var cyclePaths: [[KeyType]] = []
  var missing: [KeyType] = []
  var fellBack: [KeyType] = []
  var stalled: [KeyType] = []
  /// The first trace's container after `configure`: every trace's `configure` is the same.
  var configured: DependencyValues?

  /// Adds the trace of `traced`: what its recorder recorded, and what stopped it.
  mutating func add(
    _ traced: KeyType,
    _ recorded: (
      builds: [(key: any DependencyKey.Type, reads: [any DependencyKey.Type])],
      fallbacks: [any DependencyKey.Type]
    ),
    _ stopped: (
      cycles: [[any DependencyKey.Type]], missingInputs: [any DependencyKey.Type], stalled: Bool
    )
  ) {
    if stopped.stalled { stalled.append(traced) }
    for build in recorded.builds {
      builds.append((key: KeyType(build.key), reads: build.reads.map(KeyType.init)))
    }
    // A value the container already had (an override) built nothing: still a node.
    if !recorded.builds.contains(where: { ObjectIdentifier($0.key) == traced.id }) {
      builds.append((traced, []))
    }
    fellBack += recorded.fallbacks.map(KeyType.init)
    cyclePaths += stopped.cycles.map { $0.map(KeyType.init) }
    missing += stopped.missingInputs.map(KeyType.init)
  }

  func details(context: DependencyContext) -> DependencyGraph.TraceDetails {
    let graph = DependencyGraph(
      context: context,
      builds: builds,
      cyclePaths: cyclePaths,
      missingInputs: missing,
      configured: configured
    )
    let fellBackIDs = Set(fellBack.map(\.id))
    let stalledIDs = Set(stalled.map(\.id))
    return DependencyGraph.TraceDetails(
      graph: graph,
      fellBack: graph.nodes.filter { fellBackIDs.contains($0.key.id) },
      stalled: graph.nodes.filter { stalledIDs.contains($0.key.id) },
      traces: self
    )
  }
}

/// The `configure` closure of a trace, handed to the tracing thread.
///
/// `@unchecked Sendable`: the closure runs on the tracing thread while the caller waits for it
/// (``TraceRecorder/waitUntilDone(timeout:key:)`` returns only once it returned or its thread
/// stopped for good), so it never runs at the same time as the code that made it.
private struct Configure: @unchecked Sendable {
  let body: (inout DependencyValues) -> Void
}

extension DependencyValues {
  /// Reads `key`, so that its value and everything it reads are built.
  fileprivate func resolveForTrace(_ key: any DependencyKey.Type) {
    func read<Key: DependencyKey>(_ key: Key.Type) { _ = self[key] }
    read(key)
  }
}

/// A type's name without the `(unknown context at $…)` parts that private and local types get:
/// their address changes from run to run. A main-actor key goes by its own name, not by the
/// wrapper its values are stored under.
package func readableTypeName(_ type: Any.Type, qualified: Bool) -> String {
  let type = (type as? any WrapperKey.Type)?.wrappedKey ?? type
  let name = _typeName(type, qualified: qualified)
  let marker = Array("(unknown context at $".utf8)
  let bytes = Array(name.utf8)
  var kept: [UInt8] = []
  var index = 0
  while index < bytes.count {
    guard bytes[index...].starts(with: marker) else {
      kept.append(bytes[index])
      index += 1
      continue
    }
    // Skip the marker, the address and `)`, then the `.` that follows it.
    index += marker.count
    while index < bytes.count, bytes[index] != UInt8(ascii: ")") { index += 1 }
    index += 1
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") { index += 1 }
  }
  return kept.count == bytes.count ? name : String(decoding: kept, as: UTF8.self)
}
