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
///
/// As a key's, a module's metatype is `Sendable` (Swift 6.2 and later): a module declared in a
/// target whose default isolation is the main actor conforms without an isolation, and is
/// registered from any thread, a server's root or a test's trait included.
public protocol DependencyModule: _DependencyKeyMetatype {
  /// Contributes this module's members, sets its inputs and registers the modules it needs.
  static func register(_ values: inout DependencyValues)
}

extension DependencyValues {
  /// Runs `module`'s registrations on this container, once: a module registered before, here
  /// or in a container this one derives from, is not run again.
  ///
  /// The members a module contributes are added when the outermost `register(_:)` returns,
  /// all at once: a module reads no collection it contributes to while it registers.
  ///
  /// - Parameter module: The module to register.
  public mutating func register<Module: DependencyModule>(_ module: Module.Type) {
    // Inside another module's registration: its record of modules and members is this one's.
    if let registration = Registration.current.get() {
      guard registration.modules.insert(module) else { return }
      let outer = registration.module
      registration.module = module
      Module.register(&self)
      registration.module = outer
      return
    }
    var modules = markerValue(RegisteredModules.self)
    guard modules.insert(module) else { return }
    let registration = Registration(module: module, modules: modules)
    Registration.current.withValue(registration) { Module.register(&self) }
    registration.finish(into: &self)
  }

  /// The names of the modules registered on this container, in the order they were registered:
  /// for the graph and the validator.
  package var registeredModuleNames: [String] { markerValue(RegisteredModules.self).names }
}
