/// The one seam above the storage (DESIGN.md, decision 19): what a layer installs on a container
/// to hear of its overrides, reads and builds, and to take its stops while it traces.
///
/// The storage knows lifetimes only. Testing (a test's record of overrides and reads), the graph
/// (a trace of builds), strict mode (reports of live fallbacks) and anything later attach here,
/// or in a storage's keyed attachments (``DependencyValues/attachment(_:)``), and the storage
/// never names them. A container derived from an observed one inherits its observer; a
/// container with none pays one nil check on a slow read and nothing on the fast path.
///
/// Every requirement has a default that does nothing, so an observer states only what it hears.
package protocol DependencyObserver: AnyObject, Sendable {
  /// Whether every read through the observed containers is told (``didRead(_:override:)``):
  /// such reads leave the fast path.
  var observesReads: Bool { get }

  /// Whether the observer traces a graph: a stop (a cycle, a missing input, a captive read) is
  /// its to record (`stop(…)`), and problems that only report are not reported.
  var tracesStops: Bool { get }

  /// Whether a build's fallback to its live default stops the trace there.
  var stopsAtLiveFallbacks: Bool { get }

  /// Whether a live fallback in a test is reported as an issue (the testing product's strict
  /// mode); layers that report their own fallbacks (async keys) ask it.
  var reportsLiveFallbacks: Bool { get }

  /// Told when `key` is set on an observed container, with the box it replaces, if any.
  func didSetOverride(of key: any DependencyKey.Type, box: AnyObject, replacing: AnyObject?)

  /// Told of a read that left the fast path, with the override it found, if any.
  func didRead(_ key: any DependencyKey.Type, override: AnyObject?)

  /// Told when a build of `key` finished, with the keys it read itself, in order.
  func didBuild(_ key: KeyType, reads: [KeyType], fellBack: Bool)

  /// Told, in the test context, that `key`'s value was its live default, read by `readers`
  /// (outermost first).
  func didFallBackToLive(_ key: any DependencyKey.Type, readers: [any DependencyKey.Type])

  /// The observer's own object of type `T`, made by `make` on first use; nil when the observer
  /// keeps none (most do not).
  func attachment<T: AnyObject & Sendable>(_ make: () -> T) -> T?

  /// Records a cycle instead of stopping the process (only when ``tracesStops``).
  func stop(cycle keys: [any DependencyKey.Type]) -> Never

  /// Records a live fallback instead of building the live value (``stopsAtLiveFallbacks``).
  func stop(liveFallback key: any DependencyKey.Type) -> Never

  /// Records an input read while unset instead of stopping the process (``tracesStops``).
  func stop(missingInput key: any DependencyKey.Type) -> Never
}

extension DependencyObserver {
  package var observesReads: Bool { false }
  package var tracesStops: Bool { false }
  package var stopsAtLiveFallbacks: Bool { false }
  package var reportsLiveFallbacks: Bool { false }
  package func didSetOverride(
    of key: any DependencyKey.Type,
    box: AnyObject,
    replacing: AnyObject?
  ) {}
  package func didRead(_ key: any DependencyKey.Type, override: AnyObject?) {}
  package func didBuild(_ key: KeyType, reads: [KeyType], fellBack: Bool) {}
  package func didFallBackToLive(
    _ key: any DependencyKey.Type,
    readers: [any DependencyKey.Type]
  ) {}
  package func attachment<T: AnyObject & Sendable>(_ make: () -> T) -> T? { nil }
  package func stop(cycle keys: [any DependencyKey.Type]) -> Never {
    stopWithMessage("TinyDependency: an observer that traces no stops was asked to stop a cycle")
  }
  package func stop(liveFallback key: any DependencyKey.Type) -> Never {
    stopWithMessage("TinyDependency: an observer that traces no stops was asked to stop a build")
  }
  package func stop(missingInput key: any DependencyKey.Type) -> Never {
    stopWithMessage("TinyDependency: an observer that traces no stops was asked to stop a read")
  }
}
