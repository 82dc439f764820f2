/// One run's length and the measurements it has made, printed as `case=…` lines as they come
/// and as a table at the end.
@MainActor
final class Report {
  /// Whether `--quick` asked for a shorter run.
  let quick: Bool
  /// How many reads a read case makes per repetition.
  let reads: Int
  /// The measurements so far, in the order the table lists them.
  private(set) var results: [Measurement] = []

  /// The sections `--only` named, or nil for all of them.
  private let sections: Set<String>?

  /// Creates an empty report for a full run, or a shorter one when `quick` is true; with
  /// `only`, just the sections it names run.
  init(quick: Bool, only: Set<String>? = nil) {
    self.quick = quick
    self.sections = only
    reads = quick ? 200_000 : 2_000_000
  }

  /// Whether the section `name` runs (all do without `--only`).
  func runs(_ name: String) -> Bool {
    sections?.contains(name) ?? true
  }

  /// Records a case's time per operation and prints its `case=… ns_per_op=…` line, with the
  /// ratio to `baseline` (a case recorded before) when there is one.
  func record(_ name: String, _ ns: Double, baseline: String? = nil, note: String = "") {
    let base = baseline.flatMap { name in results.first { $0.name == name } }
    let ratio = base.map { ns / $0.nanosecondsPerOperation }
    results.append(
      Measurement(
        name: name,
        nanosecondsPerOperation: ns,
        baseline: baseline,
        ratio: ratio,
        note: note
      )
    )
    var line = "case=\(name) ns_per_op=\(format(ns))"
    if let baseline, let ratio { line += " baseline=\(baseline) ratio=\(format(ratio))" }
    print(line)
  }

  /// Adds a measurement whose line the case has printed itself, for the table.
  func append(_ measurement: Measurement) {
    results.append(measurement)
  }

  /// Prints every measurement as a row of a table, after a blank line.
  func printTable() {
    print("")
    print(pad("case", 34) + pad("ns/op", 10) + pad("baseline", 24) + pad("ratio", 8) + "note")
    for result in results {
      let ns = result.nanosecondsPerOperation.isNaN ? "-" : format(result.nanosecondsPerOperation)
      print(
        pad(result.name, 34) + pad(ns, 10) + pad(result.baseline ?? "-", 24)
          + pad(result.ratio.map(format) ?? "-", 8) + result.note
      )
    }
  }
}

/// Formats a figure rounded to two decimals.
func format(_ value: Double) -> String {
  let scaled = (value * 100).rounded() / 100
  return String(scaled)
}

/// Pads `text` with spaces to `width` characters, or adds one space when it is that long already.
func pad(_ text: String, _ width: Int) -> String {
  text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}
