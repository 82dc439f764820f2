import TinyDependency

/// Measures objects full of `@Dependency` properties, each beside the same object written by
/// hand: made and read once (outside any scope and inside one), and read again once made.
@MainActor
func measureObjects(_ report: Report) {
  let services = HandServices()
  measureObjects(Object10.self, HandObject10.self, count: 10, services: services, report)
  measureObjects(Object100.self, HandObject100.self, count: 100, services: services, report)
}

/// The cases of one object size: `objects.<count>.*`.
@MainActor
private func measureObjects<Wrapped: BenchObject, Hand: BenchObject>(
  _ wrapped: Wrapped.Type,
  _ hand: Hand.Type,
  count: Int,
  services: HandServices,
  _ report: Report
) {
  let objects = report.reads / count
  let name = "objects.\(count)"
  // The root builds every service before anything is measured, as an app's first screen would.
  createAndRead(Wrapped.self, services)

  report.record(
    "\(name).hand.createAndRead",
    median(iterations: objects) { n in
      for _ in 0..<n { createAndRead(Hand.self, services) }
    }
  )
  report.record(
    "\(name).createAndRead",
    median(iterations: objects) { n in
      for _ in 0..<n { createAndRead(Wrapped.self, services) }
    },
    baseline: "\(name).hand.createAndRead"
  )
  withDependencies {
    $0.benchValue = 7
  } operation: {
    report.record(
      "\(name).createAndRead.scoped",
      median(iterations: objects) { n in
        for _ in 0..<n { createAndRead(Wrapped.self, services) }
      },
      baseline: "\(name).hand.createAndRead"
    )
  }

  let handObject = Hand.make(services)
  report.record(
    "\(name).hand.readAgain",
    median(iterations: objects) { n in
      for _ in 0..<n { consume(handObject.readAll()) }
    }
  )
  let object = Wrapped.make(services)
  report.record(
    "\(name).readAgain",
    median(iterations: objects) { n in
      for _ in 0..<n { consume(object.readAll()) }
    },
    baseline: "\(name).hand.readAgain"
  )
  withDependencies {
    $0.benchValue = 7
  } operation: {
    let scoped = Wrapped.make(services)
    consume(scoped.readAll())
    report.record(
      "\(name).readAgain.scoped",
      median(iterations: objects) { n in
        for _ in 0..<n { consume(scoped.readAll()) }
      },
      baseline: "\(name).hand.readAgain"
    )
  }
}

/// The callgrind cases of the objects above, by name, for `callgrindCases`.
func objectCallgrindCases() -> [String:
  @MainActor (_ run: (_ operation: () -> Void) -> Void) ->
  Void]
{
  var cases: [String: @MainActor (_ run: (_ operation: () -> Void) -> Void) -> Void] = [:]
  func add<Wrapped: BenchObject, Hand: BenchObject>(
    _ wrapped: Wrapped.Type,
    _ hand: Hand.Type,
    count: Int
  ) {
    let name = "objects.\(count)"
    cases["\(name).hand.createAndRead"] = { run in
      let services = HandServices()
      run { createAndRead(Hand.self, services) }
    }
    cases["\(name).createAndRead"] = { run in
      let services = HandServices()
      createAndRead(Wrapped.self, services)
      run { createAndRead(Wrapped.self, services) }
    }
    cases["\(name).createAndRead.scoped"] = { run in
      let services = HandServices()
      withDependencies {
        $0.benchValue = 7
      } operation: {
        createAndRead(Wrapped.self, services)
        run { createAndRead(Wrapped.self, services) }
      }
    }
    cases["\(name).hand.readAgain"] = { run in
      let object = Hand.make(HandServices())
      run { consume(object.readAll()) }
    }
    cases["\(name).readAgain"] = { run in
      let object = Wrapped.make(HandServices())
      consume(object.readAll())
      run { consume(object.readAll()) }
    }
    cases["\(name).readAgain.scoped"] = { run in
      withDependencies {
        $0.benchValue = 7
      } operation: {
        let object = Wrapped.make(HandServices())
        consume(object.readAll())
        run { consume(object.readAll()) }
      }
    }
  }
  add(Object10.self, HandObject10.self, count: 10)
  add(Object100.self, HandObject100.self, count: 100)
  return cases
}

/// Makes an object, keeps it (as an app keeps what it makes, in place of the one made before;
/// otherwise the optimizer may place an object on the stack), then reads each of its properties
/// once.
@inline(__always)
func createAndRead<Object: BenchObject>(_ type: Object.Type, _ services: HandServices) {
  let object = Object.make(services)
  keep(object)
  consume(object.readAll())
}

/// The object `createAndRead` made last.
nonisolated(unsafe) var lastObject: AnyObject?

/// Keeps `object` in place of the object kept before.
@inline(never)
func keep(_ object: AnyObject) {
  lastObject = object
}
