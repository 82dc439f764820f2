// Prints which dependency context this process selected, why, and what a sample key resolved to.
//
//   swift run DependencyContextProbe
//   TINY_DEPENDENCY_CONTEXT=preview swift run DependencyContextProbe

import TinyDependency

/// A key with a different value in each context, so the output shows which one was chosen.
enum ProbeKey: DependencyKey {
  static let defaultValue = "LiveGreeter"
  static let testValue = "TestGreeter"
  static let previewValue = "PreviewGreeter"
}

let detection = ContextDetection.process
let values = DependencyValues.current
print("context: \(values.context)")
print("chosen by: \(detection.source.rawValue)")
print("ProbeKey resolved to: \(values[ProbeKey.self])")
