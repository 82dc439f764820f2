/// Counts the heap allocations per read of every allocation case, and the heap a container
/// keeps per built key against a dictionary, by running this executable under valgrind.
@MainActor
func measureAllocations(_ report: Report) {
  print("")
  for name in allocationCases.keys.sorted() {
    if let per = AllocationCounter.perRead(caseName: name) {
      print("case=\(name) heap_allocations_per_read=\(format(per))")
      report.append(
        Measurement(
          name: name,
          nanosecondsPerOperation: .nan,
          baseline: nil,
          ratio: nil,
          note: "\(format(per)) heap allocations per read (valgrind)"
        )
      )
    } else {
      print("case=\(name) skipped: allocations are counted with valgrind, which is not available")
    }
  }

  // The heap a container keeps per built key, against a dictionary of the same values.
  for name in ["allocations.dictionary.insert", "allocations.firstRead"] {
    if let bytes = AllocationCounter.bytesKeptPerRead(caseName: name) {
      let label = name == "allocations.firstRead" ? "memory.firstRead" : "memory.dictionary.insert"
      print("case=\(label) bytes_kept_per_key=\(format(bytes))")
      report.append(
        Measurement(
          name: label,
          nanosecondsPerOperation: .nan,
          baseline: nil,
          ratio: nil,
          note: "\(format(bytes)) heap bytes kept per key (valgrind)"
        )
      )
    }
  }
}
