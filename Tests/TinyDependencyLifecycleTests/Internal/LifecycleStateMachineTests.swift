import Testing

@testable import TinyDependencyLifecycle

/// Seeded sequences of prepares (overlapping, of the same and other keys), callers leaving
/// (timeouts, cancellations), builds ending (values, failures), shutdowns and reads, driven
/// through a container's ``LifecycleStateMachine`` with one ``PreparationStateMachine`` per
/// build, as `Lifecycle`, `PendingBuild` and `runBuild` use them, and through a plain model;
/// every step's answers and states must agree.
@Suite("A container's preparation and shutdown machines do what a plain model does")
struct LifecycleStateMachineTests {
  /// An outcome as callers see it: a value (the build's number), or a failure.
  enum Outcome: Equatable {
    case value(Int)
    case failed, cancelled, shutDown
  }

  /// What a prepare is answered.
  enum Answer: Equatable {
    case refused, stored(Int), waitsForAbandoned
    case observing(build: Int)
  }

  /// What a read finds.
  enum Read: Equatable { case value(Int), stops, unprepared }

  enum Event {
    case prepare(caller: Int, key: Int)
    case leave(caller: Int)
    case end(key: Int, succeeds: Bool)
    case shutdown
    case read(key: Int)
  }

  // MARK: - The machines, used as the lifecycle uses them

  final class Build {
    let number: Int
    let key: Int
    var machine = PreparationStateMachine<Int, Outcome>()
    var cancelled = false
    init(number: Int, key: Int) {
      self.number = number
      self.key = key
    }
  }

  struct System {
    var container = LifecycleStateMachine<Build, Int>()
    var stored: [Int: Int] = [:]
    var observing: [Int: (build: Build, id: UInt64)] = [:]
    var told: [Int: Outcome] = [:]
    var made = 0

    static func id(_ key: Int) -> ObjectIdentifier { ObjectIdentifier(MachineKeys.all[key]) }

    mutating func prepare(caller: Int, key: Int) -> Answer {
      var action = container.find(Self.id(key))
      var fresh: Build?
      while true {
        switch action {
        case .refuse: return .refused
        case .join(let build):
          if build.machine.isAbandoned { return .waitsForAbandoned }
          return observe(build, caller: caller)
        case .start: return observe(fresh!, caller: caller)
        case .lookForValue(let stamp):
          if let value = stored[key] { return .stored(value) }
          if fresh == nil {
            made += 1
            fresh = Build(number: made, key: key)
          }
          action = container.start(fresh!, for: Self.id(key), after: stamp)
        }
      }
    }

    private mutating func observe(_ build: Build, caller: Int) -> Answer {
      switch build.machine.observe(caller) {
      case .deliver(let outcome): told[caller] = outcome
      case .observing(let id): observing[caller] = (build, id)
      }
      return .observing(build: build.number)
    }

    mutating func leave(caller: Int) {
      guard let (build, id) = observing.removeValue(forKey: caller) else { return }
      if case .stopped(_, let cancels) = build.machine.stopObserving(id), cancels {
        build.cancelled = true
      }
    }

    mutating func end(key: Int, succeeds: Bool) {
      guard let build = container.inFlight[Self.id(key)] else { return }
      let outcome: Outcome
      if !succeeds {
        outcome = .failed
      } else if !build.machine.isSettled && !build.machine.isAbandoned && container.isOpen
        && stored[key] == nil
      {
        stored[key] = build.number
        outcome = .value(build.number)
      } else {
        outcome = container.isOpen ? .cancelled : .shutDown
      }
      container.remove(build, for: Self.id(key))
      if case .notify(let callers, let delivered) = build.machine.settle(outcome) {
        for caller in callers {
          told[caller] = delivered
          observing[caller] = nil
        }
      }
    }

    mutating func shutdown() {
      _ = container.shutDown { builds in
        for build in builds { build.cancelled = true }
        return 1
      }
    }

    func read(key: Int) -> Read {
      guard let value = stored[key] else { return .unprepared }
      return container.isOpen ? .value(value) : .stops
    }

    var inFlightKeys: Set<Int> {
      Set((0..<MachineKeys.all.count).filter { container.inFlight[Self.id($0)] != nil })
    }
  }

  // MARK: - The model

  struct Model {
    struct Build {
      let number: Int
      var callers: [Int] = []
      var abandoned = false
    }
    var builds: [Int: Build] = [:]
    var stored: [Int: Int] = [:]
    var told: [Int: Outcome] = [:]
    var shutDown = false
    var made = 0

    mutating func prepare(caller: Int, key: Int) -> Answer {
      if shutDown { return .refused }
      if let build = builds[key] {
        if build.abandoned { return .waitsForAbandoned }
        builds[key]!.callers.append(caller)
        return .observing(build: build.number)
      }
      if let value = stored[key] { return .stored(value) }
      made += 1
      builds[key] = Build(number: made, callers: [caller])
      return .observing(build: made)
    }

    mutating func leave(caller: Int) {
      guard let key = builds.first(where: { $0.value.callers.contains(caller) })?.key else {
        return
      }
      builds[key]!.callers.removeAll { $0 == caller }
      if builds[key]!.callers.isEmpty { builds[key]!.abandoned = true }
    }

    mutating func end(key: Int, succeeds: Bool) {
      guard let build = builds.removeValue(forKey: key) else { return }
      let outcome: Outcome
      if !succeeds {
        outcome = .failed
      } else if !build.abandoned && !shutDown {
        stored[key] = build.number
        outcome = .value(build.number)
      } else {
        outcome = shutDown ? .shutDown : .cancelled
      }
      for caller in build.callers { told[caller] = outcome }
    }

    mutating func shutdown() {
      shutDown = true
      // Every build in flight is cancelled: one that nobody awaits any more is abandoned only
      // once its callers left, as before; the cancellation reaches its builder either way.
    }

    func read(key: Int) -> Read {
      guard let value = stored[key] else { return .unprepared }
      return shutDown ? .stops : .value(value)
    }
  }

  // MARK: - Sequences

  static func events(seed: UInt64, count: Int) -> [Event] {
    var random = Seeded(state: seed)
    return (0..<count).map { index in
      let key = random.next(MachineKeys.all.count)
      switch random.next(20) {
      case 0..<8: return .prepare(caller: index, key: key)
      case 8..<12: return .leave(caller: random.next(index + 1))
      case 12..<16: return .end(key: key, succeeds: random.next(4) != 0)
      case 16: return .shutdown
      default: return .read(key: key)
      }
    }
  }

  @Test func seededSequencesAgreeWithTheModel() {
    for seed in 0..<3_000 as Range<UInt64> {
      var system = System()
      var model = Model()
      for (step, event) in Self.events(seed: seed, count: 60).enumerated() {
        var answers: (system: String, model: String) = ("", "")
        switch event {
        case .prepare(let caller, let key):
          answers = (
            "\(system.prepare(caller: caller, key: key))",
            "\(model.prepare(caller: caller, key: key))"
          )
        case .leave(let caller):
          system.leave(caller: caller)
          model.leave(caller: caller)
        case .end(let key, let succeeds):
          system.end(key: key, succeeds: succeeds)
          model.end(key: key, succeeds: succeeds)
        case .shutdown:
          system.shutdown()
          model.shutdown()
        case .read(let key):
          answers = ("\(system.read(key: key))", "\(model.read(key: key))")
        }
        let problem: String? =
          if answers.system != answers.model {
            "answered \(answers.system), model \(answers.model)"
          } else if system.stored != model.stored {
            "stored \(system.stored), model \(model.stored)"
          } else if system.told != model.told {
            "told \(system.told), model \(model.told)"
          } else if system.inFlightKeys != Set(model.builds.keys) {
            "in flight \(system.inFlightKeys), model \(model.builds.keys.sorted())"
          } else if system.container.isOpen == model.shutDown {
            "open differs"
          } else {
            nil
          }
        if let problem {
          Issue.record("seed \(seed), step \(step), \(event): \(problem)")
          return
        }
      }
    }
  }

  /// A shutdown cancels every build in flight, refuses later prepares, and is asked for once.
  @Test func aShutdownCancelsTheBuildsInFlightAndRefusesNewOnes() {
    var system = System()
    _ = system.prepare(caller: 1, key: 0)
    _ = system.prepare(caller: 2, key: 1)
    var cancelled: [Int] = []
    let first = system.container.shutDown { builds in
      cancelled = builds.map(\.key).sorted()
      return 7
    }
    let second = system.container.shutDown { _ in 8 }
    #expect(cancelled == [0, 1])
    #expect(first == 7 && second == 7)
    #expect(system.prepare(caller: 3, key: 2) == .refused)
  }

  /// A build that left while a prepare looked for a stored value makes it look again rather
  /// than start a second build beside the stored value.
  @Test func aBuildThatLeftWhileAPrepareLookedMakesItLookAgain() {
    var machine = LifecycleStateMachine<Build, Int>()
    let key = System.id(0)
    let running = Build(number: 1, key: 0)
    guard case .lookForValue(let stamp) = machine.find(key) else {
      Issue.record("expected a look for a value")
      return
    }
    #expect(machine.start(running, for: key, after: stamp) == .start)
    // Another prepare looked (with the same stamp) before `running` stored its value and left.
    machine.remove(running, for: key)
    let late = machine.start(Build(number: 2, key: 0), for: key, after: stamp)
    #expect(late == .lookForValue(stamp: 1))
  }
}

extension LifecycleStateMachine.Action: Equatable {
  static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs, rhs) {
    case (.refuse, .refuse), (.start, .start): true
    case (.join(let left), .join(let right)): left === right
    case (.lookForValue(let left), .lookForValue(let right)): left == right
    default: false
    }
  }
}

/// Keys whose identities the machines are keyed by.
enum MachineKeys {
  enum A {}
  enum B {}
  enum C {}
  static let all: [Any.Type] = [A.self, B.self, C.self]
}
