extension DependencyValues {
  /// The container's context, under a name that TinyDependencyFace's own `context` property,
  /// spelled with swift-dependencies' cases, does not shadow.
  package var coreContext: DependencyContext {
    get { context }
    set { context = newValue }
  }
}
