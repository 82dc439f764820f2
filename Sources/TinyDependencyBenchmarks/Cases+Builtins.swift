import Foundation
import TinyDependency
import TinyDependencyBuiltins

/// Measures reading the date and UUID built-ins as app code does, against calling `Date()` and
/// `UUID()` directly.
@MainActor
func measureBuiltins(_ report: Report) {
  let reads = report.reads
  let builtins = BuiltinsModel()
  _ = (builtins.now, builtins.uuid())
  report.record(
    "builtins.Date()",
    median(iterations: reads) { n in
      for _ in 0..<n { consume(Date()) }
    }
  )
  report.record(
    "builtins.date.now",
    median(iterations: reads) { n in
      for _ in 0..<n { consume(builtins.now) }
    },
    baseline: "builtins.Date()"
  )
  report.record(
    "builtins.date()",
    median(iterations: reads) { n in
      for _ in 0..<n { consume(builtins.date()) }
    },
    baseline: "builtins.Date()"
  )
  report.record(
    "builtins.UUID()",
    median(iterations: reads / 4) { n in
      for _ in 0..<n { consume(UUID()) }
    }
  )
  report.record(
    "builtins.uuid()",
    median(iterations: reads / 4) { n in
      for _ in 0..<n { consume(builtins.uuid()) }
    },
    baseline: "builtins.UUID()"
  )
}

/// Reads the built-ins as app code does.
private struct BuiltinsModel: Sendable {
  @Dependency(\.date.now) var now
  @Dependency(\.date) var date
  @Dependency(\.uuid) var uuid
}
