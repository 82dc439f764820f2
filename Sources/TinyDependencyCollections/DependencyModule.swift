public import TinyDependency

/// A group of registrations: the members a part of the app contributes and the inputs it sets.
///
/// The app registers its modules once, at its entry point; a module may register the modules
/// it needs, and a module registered twice in one container runs once.
///
/// ```swift
/// enum SearchModule: DependencyModule {
///   static func register(_ values: inout DependencyValues) {
///     values.contribute(SearchPluginKey.self)
///     values.contribute(SearchHandlerKey.self)
///   }
/// }
///
/// prepareDependencies { $0.register(SearchModule.self) }
/// ```
///
/// A server registers its modules on each root it makes; a test registers what it needs with
/// a trait (`@Test(.dependencies { $0.register(SearchModule.self) })`), since a test's root
/// never sees the app's entry point.
public protocol DependencyModule {
  /// Contributes this module's members, sets its inputs and registers the modules it needs.
  static func register(_ values: inout DependencyValues)
}

extension DependencyValues {
  /// Runs `module`'s registrations on this container, once: a module registered before, here
  /// or in a container this one derives from, is not run again.
  ///
  /// - Parameter module: The module to register.
  public mutating func register<Module: DependencyModule>(_ module: Module.Type) {
    let id = ObjectIdentifier(module)
    var modules = markerValue(RegisteredModules.self)
    guard !modules.contains(id) else { return }
    let name = _typeName(module, qualified: false)
    modules.append(id, name: name)
    setInternalMarker(RegisteredModules.self, modules)
    Registration.module.withValue(name) { Module.register(&self) }
  }

  /// The names of the modules registered on this container, in the order they were registered:
  /// for the graph and the validator.
  package var registeredModuleNames: [String] { markerValue(RegisteredModules.self).names }
}
