/// The hook through which a layer above the core watches builds: TinyDependencyGraph's trace
/// records what each build read, and the validator stops a resolution before a live value is
/// built.
///
/// A storage made with a recorder passes it to every storage derived from it and to every build
/// frame. The core calls it after each build, and, where it would stop the process (a cycle, an
/// unset input, a live fallback while validating), it calls the recorder's `stop` instead, which
/// records the problem and never returns (the trace parks its thread).
package protocol BuildRecorder: AnyObject, Sendable {
  /// Whether a key's fallback to its live default stops the resolution before it is built.
  var stopsAtLiveFallbacks: Bool { get }

  /// Records a finished build: the keys it read, and whether the value was the key's default
  /// used as a fallback for the context.
  func recordBuild(
    of key: any DependencyKey.Type,
    reads: [any DependencyKey.Type],
    fellBack: Bool
  )

  /// Records a cycle (the keys of its path, the re-entered one last) and never returns.
  func stop(cycle keys: [any DependencyKey.Type]) -> Never

  /// Records that `key` was about to build its live default, and never returns.
  func stop(liveFallback key: any DependencyKey.Type) -> Never

  /// Records an input read while unset, and never returns.
  func stop(missingInput key: any DependencyKey.Type) -> Never
}

/// A key stored under a wrapper (a main-actor key, a key with only test and preview values):
/// messages, the graph and the validator name it by the key it wraps.
package protocol WrapperKey { static var wrappedKey: Any.Type { get } }
