import TinyDependency

/// Strict mode, attached through the core's seam: an observer around a test's own that reports
/// each live fallback to the router, which words and holds the report.
final class StrictModeObserver: DependencyObserver {
  /// The observer strict mode was attached around (a test's record), told of everything.
  let base: (any DependencyObserver)?

  init(around base: (any DependencyObserver)?) { self.base = base }

  var observesReads: Bool { base?.observesReads ?? false }
  var reportsLiveFallbacks: Bool { true }
  var tracesStops: Bool { base?.tracesStops ?? false }
  var stopsAtLiveFallbacks: Bool { base?.stopsAtLiveFallbacks ?? false }

  func didSetOverride(of key: any DependencyKey.Type, box: AnyObject, replacing: AnyObject?) {
    base?.didSetOverride(of: key, box: box, replacing: replacing)
  }

  func didRead(_ key: any DependencyKey.Type, override: AnyObject?) {
    base?.didRead(key, override: override)
  }

  func didBuild(_ key: KeyType, reads: [KeyType], fellBack: Bool) {
    base?.didBuild(key, reads: reads, fellBack: fellBack)
  }

  func didFallBackToLive(_ key: any DependencyKey.Type, readers: [any DependencyKey.Type]) {
    base?.didFallBackToLive(key, readers: readers)
    IssueRouter.reportLiveFallback(of: key, readers: readers)
  }

  func attachment<T: AnyObject & Sendable>(_ make: () -> T) -> T? { base?.attachment(make) }

  func stop(cycle keys: [any DependencyKey.Type]) -> Never { traced.stop(cycle: keys) }

  func stop(liveFallback key: any DependencyKey.Type) -> Never { traced.stop(liveFallback: key) }

  func stop(missingInput key: any DependencyKey.Type) -> Never { traced.stop(missingInput: key) }

  /// The observer that traces, which the core asks to stop only when `tracesStops` says so:
  /// strict mode traces nothing of its own.
  private var traced: any DependencyObserver {
    guard let base else { stopWithMessage("TinyDependency: strict mode traces no stops") }
    return base
  }
}

extension DependencyValues {
  /// Whether a test value that falls back to the live default is reported as a test issue:
  /// strict mode's observer, attached around the test's own. Nothing is rebuilt.
  var strictMode: Bool {
    get { reportsLiveFallbacks }
    set {
      guard newValue != reportsLiveFallbacks else { return }
      observer = newValue ? StrictModeObserver(around: observer) : attachedObserver
    }
  }

  /// The observer attached beneath strict mode's, if strict mode is on; else ``observer``.
  var attachedObserver: (any DependencyObserver)? {
    (observer as? StrictModeObserver)?.base ?? observer
  }
}
