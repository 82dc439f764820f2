import TinyDependency
import TinyDependencyCollections

/// Measures a collection of 10 members: its first read in a fresh container against the first
/// reads of its 10 members plus one array, its later reads against a built key's, and the
/// registration of a module of 10 contributions against setting 10 keys.
@MainActor
func measureCollections(_ report: Report) {
  let containers = report.quick ? 500 : 2_000
  func registered() -> [DependencyValues] {
    (0..<containers).map { _ in
      var values = DependencyValues(context: .default)
      values.register(TenMembersModule.self)
      return values
    }
  }
  let memberReads = timedMedian { () -> (Int, () -> Void) in
    let all = registered()
    return (
      all.count,
      {
        for values in all {
          var elements: [Int] = []
          elements.reserveCapacity(10)
          for read in tenMemberReads { elements.append(read(values)) }
          consume(elements)
        }
      }
    )
  }
  let collectionReads = timedMedian { () -> (Int, () -> Void) in
    let all = registered()
    return (all.count, { for values in all { consume(values[TenMembersKey.self]) } })
  }
  // The same ten reads inside the build of a key written by hand: what a build that reads ten
  // keys costs in the core, whatever reads them.
  let handwritten = timedMedian { () -> (Int, () -> Void) in
    let all = registered()
    return (all.count, { for values in all { consume(values[HandwrittenTenKey.self]) } })
  }
  report.record("baseline.collection.memberFirstReads", memberReads)
  report.record(
    "baseline.collection.handwrittenKeyFirstRead",
    handwritten,
    baseline: "baseline.collection.memberFirstReads"
  )
  report.record(
    "collection.firstRead.10members",
    collectionReads,
    baseline: "baseline.collection.memberFirstReads"
  )

  var built = DependencyValues(context: .default)
  built.register(TenMembersModule.self)
  consume(built[TenMembersKey.self])
  consume(built[HandwrittenTenKey.self])
  let builtKey = median(iterations: 1_000_000) { n in
    for _ in 0..<n { consume(built[HandwrittenTenKey.self]) }
  }
  let builtCollection = median(iterations: 1_000_000) { n in
    for _ in 0..<n { consume(built[TenMembersKey.self]) }
  }
  report.record("baseline.collection.builtKeyRead", builtKey)
  report.record(
    "collection.laterRead",
    builtCollection,
    baseline: "baseline.collection.builtKeyRead"
  )

  let setKeys = median(iterations: 20_000) { n in
    for _ in 0..<n {
      var values = DependencyValues(context: .default)
      for set in tenKeySets { set(&values) }
      consume(values)
    }
  }
  let registers = median(iterations: 20_000) { n in
    for _ in 0..<n {
      var values = DependencyValues(context: .default)
      values.register(TenMembersModule.self)
      consume(values)
    }
  }
  report.record("baseline.collection.set10keys", setKeys)
  report.record(
    "collection.register.10contributions",
    registers,
    baseline: "baseline.collection.set10keys"
  )
}

/// The median ns per operation of a body made afresh (untimed) for each repetition.
@MainActor
private func timedMedian(_ make: () -> (Int, () -> Void)) -> Double {
  var samples: [Double] = []
  for _ in 0..<9 {
    let (count, body) = make()
    let start = now()
    body()
    samples.append(Double(now() - start) / Double(count))
  }
  samples.sort()
  return samples[samples.count / 2]
}

// MARK: - Ten members

enum TenMembersKey: DependencyCollectionKey {
  typealias Element = Int
}

enum M0 {}
enum M1 {}
enum M2 {}
enum M3 {}
enum M4 {}
enum M5 {}
enum M6 {}
enum M7 {}
enum M8 {}
enum M9 {}

/// A member whose value is its tag's position.
enum TenMember<Tag>: DependencyContribution {
  typealias Collection = TenMembersKey
  static var defaultValue: Int { _typeName(Tag.self).count }
}

enum TenMembersModule: DependencyModule {
  static func register(_ values: inout DependencyValues) {
    values.contribute(TenMember<M0>.self)
    values.contribute(TenMember<M1>.self)
    values.contribute(TenMember<M2>.self)
    values.contribute(TenMember<M3>.self)
    values.contribute(TenMember<M4>.self)
    values.contribute(TenMember<M5>.self)
    values.contribute(TenMember<M6>.self)
    values.contribute(TenMember<M7>.self)
    values.contribute(TenMember<M8>.self)
    values.contribute(TenMember<M9>.self)
  }
}

/// A key whose value is the ten members' values, read by hand.
enum HandwrittenTenKey: DependencyKey {
  static var defaultValue: [Int] {
    let values = DependencyValues.current
    var elements: [Int] = []
    elements.reserveCapacity(10)
    for read in tenMemberReads { elements.append(read(values)) }
    return elements
  }
}

/// Reads of the ten members, as the baseline makes them.
private let tenMemberReads: [@Sendable (DependencyValues) -> Int] = [
  { $0[TenMember<M0>.self] }, { $0[TenMember<M1>.self] }, { $0[TenMember<M2>.self] },
  { $0[TenMember<M3>.self] }, { $0[TenMember<M4>.self] }, { $0[TenMember<M5>.self] },
  { $0[TenMember<M6>.self] }, { $0[TenMember<M7>.self] }, { $0[TenMember<M8>.self] },
  { $0[TenMember<M9>.self] },
]

/// Sets of ten keys, as `prepareDependencies` would set them.
private let tenKeySets: [@Sendable (inout DependencyValues) -> Void] = [
  { $0[TenMember<M0>.self] = 0 }, { $0[TenMember<M1>.self] = 1 }, { $0[TenMember<M2>.self] = 2 },
  { $0[TenMember<M3>.self] = 3 }, { $0[TenMember<M4>.self] = 4 }, { $0[TenMember<M5>.self] = 5 },
  { $0[TenMember<M6>.self] = 6 }, { $0[TenMember<M7>.self] = 7 }, { $0[TenMember<M8>.self] = 8 },
  { $0[TenMember<M9>.self] = 9 },
]

/// The collections' cases of `--callgrind`: registering a module of ten and setting ten keys in a
/// fresh container; a first read of the collection, of a key whose build reads the ten members,
/// and the first reads of the ten members by hand, each after registering the module in a fresh
/// container (subtract the registration to compare reads).
let collectionCallgrindCases:
  [String: @MainActor (_ run: (_ operation: () -> Void) -> Void) -> Void] =
    [
      "collection.register.10contributions": { run in
        run {
          var values = DependencyValues(context: .default)
          values.register(TenMembersModule.self)
          consume(values)
        }
      },
      "collection.set10keys": { run in
        run {
          var values = DependencyValues(context: .default)
          for set in tenKeySets { set(&values) }
          consume(values)
        }
      },
      "collection.registerThenFirstRead": { run in
        run {
          var values = DependencyValues(context: .default)
          values.register(TenMembersModule.self)
          consume(values[TenMembersKey.self])
        }
      },
      "collection.registerThenHandwrittenFirstRead": { run in
        run {
          var values = DependencyValues(context: .default)
          values.register(TenMembersModule.self)
          consume(values[HandwrittenTenKey.self])
        }
      },
      "collection.registerThenMemberFirstReads": { run in
        run {
          var values = DependencyValues(context: .default)
          values.register(TenMembersModule.self)
          var elements: [Int] = []
          elements.reserveCapacity(10)
          for read in tenMemberReads { elements.append(read(values)) }
          consume(elements)
        }
      },
    ]
