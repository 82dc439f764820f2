/// The container a build binds as current, seen from inside: which build its reads belong to.
///
/// Each build binds one, and only the ``DependencyValues`` that the build's code sees hold it:
/// `DependencyValues.current` read during the build, and the copies made of it. When the build
/// ends, anything still holding it kept a copy of the build's container (a value that stores
/// `DependencyValues.current`, an unstructured task that inherited it): the value keeps the
/// scope it was built in, as one that holds an escaped scope does (`ScopeHold.escapedScope`).
/// A frame could not tell this itself: the storage's entries and the threads waiting for the
/// build hold it too.
///
/// Each build makes a new one, never reused: a task the build started may read it on another
/// thread, ordered with the build's end only by reference counts, which a thread sanitizer does
/// not see. So a first read allocates the box, the frame and this (`allocations.firstRead`).
@usableFromInline
final class BuildBinding: Sendable {
  let frame: BuildFrame

  init(_ frame: BuildFrame) { self.frame = frame }
}
