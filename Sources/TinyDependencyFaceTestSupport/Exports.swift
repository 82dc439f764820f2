// swift-dependencies' `DependenciesTestSupport` face: the face and the testing product, so one
// import replaces `import DependenciesTestSupport` (the `.dependencies { … }` and
// `.dependency(\.x, value)` traits are the testing product's).
@_exported public import TinyDependencyFace
@_exported public import TinyDependencyTesting
