/// What a ``Dependency`` tells about the scope it was made in.
protocol ScopeCapturing {
  /// The scope the wrapper was made in; nil for the process root.
  var capturedScope: CapturedScope? { get }
}

extension Dependency: ScopeCapturing {
  var capturedScope: CapturedScope? { capture }
}

extension DependencyValues {
  /// The values `parent`'s dependencies are read from now; the current ones, reported, when it
  /// holds no ``Dependency``.
  static func values(of parent: AnyObject, at site: SourceSite) -> DependencyValues {
    let current = DependencyValues.current
    var mirror: Mirror? = Mirror(reflecting: parent)
    while let reflected = mirror {
      for child in reflected.children {
        guard let dependency = child.value as? any ScopeCapturing else { continue }
        guard let capture = dependency.capturedScope else { return current }
        return capture.effectiveValues(current: current)
      }
      mirror = reflected.superclassMirror
    }
    IssueReporter.report(
      "withDependencies(from:) was given a \(_typeName(type(of: parent), qualified: false)), which "
        + "holds no @Dependency: its dependencies cannot be found, so the operation runs in the "
        + "current scope. Give the parent a @Dependency property, or make the child inside "
        + "withDependencies { … } operation: { … } instead.",
      at: site
    )
    return current
  }
}
