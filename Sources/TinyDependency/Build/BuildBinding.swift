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
/// A binding nothing kept is the thread's spare for its next build, so that a first read
/// allocates the box and the frame and nothing else (`allocations.firstRead`).
@usableFromInline
final class BuildBinding: @unchecked Sendable {
  // `@unchecked Sendable`: `frame` is written only while no container holds the binding (when
  // it is made, and when it is the calling thread's spare).
  private(set) var frame: BuildFrame?

  init(_ frame: BuildFrame) { self.frame = frame }

  /// A binding for `frame`: the spare of `thread` (the calling thread's record), or a new one.
  static func make(for frame: BuildFrame, on thread: ThreadBuilds) -> BuildBinding {
    guard let binding = thread.spare else { return BuildBinding(frame) }
    thread.spare = nil
    binding.frame = frame
    return binding
  }

  /// Keeps `binding`, which nothing else holds any more, as the spare of `thread`.
  static func recycle(_ binding: BuildBinding, on thread: ThreadBuilds) {
    binding.frame = nil
    if thread.spare == nil { thread.spare = binding }
  }
}
