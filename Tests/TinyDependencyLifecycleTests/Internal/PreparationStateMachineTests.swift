import Testing

@testable import TinyDependencyLifecycle

@Suite("A shared build's state machine does what a plain model of it does, event by event")
struct PreparationStateMachineTests {
  typealias Machine = PreparationStateMachine<Int, Int>

  /// What a shared build's callers see, written as plainly as possible.
  struct Model {
    var outcome: Int?
    /// The observations in progress, oldest first: (number, observer).
    var active: [(id: UInt64, observer: Int)] = []
    var lastID: UInt64 = 0
    var everyoneLeft = false

    var isAbandoned: Bool { everyoneLeft && outcome == nil }
  }

  /// One event of a sequence: a prepare joining, a prepare leaving (its timeout or its
  /// cancellation), the build ending (its value, its failure, a give-up or a shutdown).
  enum Event {
    case prepare(observer: Int)
    case leave(UInt64)
    case end(outcome: Int)
  }

  static func events(seed: UInt64, count: Int) -> [Event] {
    var random = Seeded(state: seed)
    var issued: UInt64 = 0
    return (0..<count).map { index in
      switch random.next(10) {
      case 0..<5:
        issued += 1
        return .prepare(observer: index)
      case 5..<9:
        // Sometimes a number never issued, or one that already left: nothing happens.
        return .leave(UInt64(random.next(Int(issued) + 2)))
      default:
        return .end(outcome: random.next(3))
      }
    }
  }

  /// Applies `event` to both, and records where they disagree.
  static func apply(_ event: Event, to machine: inout Machine, and model: inout Model) -> String? {
    switch event {
    case .prepare(let observer):
      let action = machine.observe(observer)
      if let outcome = model.outcome {
        guard case .deliver(let delivered) = action, delivered == outcome else {
          return "prepare after the end: \(action), model delivers \(outcome)"
        }
      } else {
        model.lastID += 1
        model.active.append((model.lastID, observer))
        guard case .observing(let id) = action, id == model.lastID else {
          return "prepare: \(action), model observes as \(model.lastID)"
        }
      }
    case .leave(let id):
      let action = machine.stopObserving(id)
      let index = model.outcome == nil ? model.active.firstIndex { $0.id == id } : nil
      guard let index else {
        guard case .none = action else { return "leave \(id): \(action), model: nothing" }
        return nil
      }
      let left = model.active.remove(at: index)
      if model.active.isEmpty { model.everyoneLeft = true }
      guard case .stopped(let observer, let cancels) = action, observer == left.observer,
        cancels == model.active.isEmpty
      else { return "leave \(id): \(action), model stops \(left.observer)" }
    case .end(let outcome):
      let action = machine.settle(outcome)
      guard model.outcome == nil else {
        guard case .alreadySettled = action else { return "end again: \(action)" }
        return nil
      }
      model.outcome = outcome
      let told = model.active.map(\.observer)
      model.active = []
      guard case .notify(let observers, let delivered) = action, observers == told,
        delivered == outcome
      else { return "end: \(action), model tells \(told) \(outcome)" }
    }
    if machine.isSettled != (model.outcome != nil) { return "settled differs" }
    if machine.isAbandoned != model.isAbandoned { return "abandoned differs" }
    if machine.observers.count != model.active.count { return "observer count differs" }
    return nil
  }

  @Test func seededSequencesAgreeWithTheModel() {
    for seed in 0..<3_000 as Range<UInt64> {
      var machine = Machine()
      var model = Model()
      for (step, event) in Self.events(seed: seed, count: 40).enumerated() {
        if let problem = Self.apply(event, to: &machine, and: &model) {
          Issue.record("seed \(seed), step \(step), \(event): \(problem)")
          return
        }
      }
    }
  }

  @Test func theLastCallerLeavingCancelsTheBuildAndMarksItAbandoned() {
    var machine = Machine()
    guard case .observing(let first) = machine.observe(1),
      case .observing(let second) = machine.observe(2)
    else {
      Issue.record("expected two observations")
      return
    }
    guard case .stopped(1, cancelsBuild: false) = machine.stopObserving(first) else {
      Issue.record("the first caller leaving must not cancel the build another awaits")
      return
    }
    #expect(!machine.isAbandoned)
    guard case .stopped(2, cancelsBuild: true) = machine.stopObserving(second) else {
      Issue.record("the last caller leaving cancels the build")
      return
    }
    #expect(machine.isAbandoned)
    guard case .notify(let told, 7) = machine.settle(7) else {
      Issue.record("a late outcome still settles the build")
      return
    }
    #expect(told.isEmpty)
    #expect(!machine.isAbandoned)
  }
}
