import Dispatch
import Foundation
import TinyDependency

/// A counter that a test value creates fresh for each container.
///
/// `@unchecked Sendable`: `value` is only touched on `queue`, a serial queue.
final class Counter: @unchecked Sendable {
  private let queue = DispatchQueue(label: "Counter")
  private var value = 0

  func next() -> Int {
    queue.sync {
      value += 1
      return value
    }
  }
}

enum CounterKey: DependencyKey {
  static var defaultValue: Counter { Counter() }
  static var testValue: Counter { Counter() }
}

enum GreetingKey: DependencyKey {
  static let defaultValue = "live hello"
  static let testValue = "test hello"
}

enum FarewellKey: DependencyKey {
  static let defaultValue = "live bye"
  static let testValue = "test bye"
}

/// A key with no test value of its own.
enum LiveOnlyKey: DependencyKey {
  static var defaultValue: String { "live only" }
}

/// A key whose test value is declared but is built from a key that has none.
enum LeakyServiceKey: DependencyKey {
  static var defaultValue: String { "live service" }
  static var testValue: String { "test service(\(DependencyValues.current[LiveOnlyKey.self]))" }
}

/// A key with a test value, built from keys that have theirs.
enum CompleteServiceKey: DependencyKey {
  static var defaultValue: String { "live complete" }
  static var testValue: String {
    let values = DependencyValues.current
    return "complete(\(values[GreetingKey.self]), \(values[FarewellKey.self]))"
  }
}

enum EndpointKey: DependencyInputKey {
  typealias Value = String
}

enum EndpointUserKey: DependencyKey {
  static var defaultValue: String { "live" }
  static var testValue: String { "uses \(DependencyValues.current[EndpointKey.self])" }
}

/// Two keys declared with `TestDependencyKey` only, that read each other, and a key that reads
/// them.
enum TestOnlyPing: TestDependencyKey {
  static var testValue: String { "ping(\(DependencyValues.current[TestOnlyPong.self]))" }
}

enum TestOnlyPong: TestDependencyKey {
  static var testValue: String { "pong(\(DependencyValues.current[TestOnlyPing.self]))" }
}

enum TestOnlyPingReaderKey: DependencyKey {
  static var defaultValue: String { "reader" }
  static var testValue: String { DependencyValues.current[TestOnlyPing.self] }
}

enum PingKey: DependencyKey {
  static var defaultValue: String { "ping" }
  static var testValue: String { "ping(\(DependencyValues.current[PongKey.self]))" }
}

enum PongKey: DependencyKey {
  static var defaultValue: String { "pong" }
  static var testValue: String { "pong(\(DependencyValues.current[PingKey.self]))" }
}

/// A key whose test value wraps another key's value, read directly rather than through the
/// container: it declares a test value of its own.
enum WrapsLiveOnlyKey: DependencyKey {
  static var defaultValue: String { "live wrapper" }
  static var testValue: String { "wrapped(\(LiveOnlyKey.testValue))" }
}

extension DependencyValues {
  var liveOnly: String {
    get { self[LiveOnlyKey.self] }
    set { self[LiveOnlyKey.self] = newValue }
  }
  var leakyService: String {
    get { self[LeakyServiceKey.self] }
    set { self[LeakyServiceKey.self] = newValue }
  }
  var counter: Counter {
    get { self[CounterKey.self] }
    set { self[CounterKey.self] = newValue }
  }
  var greeting: String {
    get { self[GreetingKey.self] }
    set { self[GreetingKey.self] = newValue }
  }
  var farewell: String {
    get { self[FarewellKey.self] }
    set { self[FarewellKey.self] = newValue }
  }
}

/// A value set on another thread and read after it signalled.
///
/// `@unchecked Sendable`: written by a `finishes(within:)` body, read after it returns true (the
/// body's end is published under a lock there).
final class Outcome<Value>: @unchecked Sendable {
  var value: Value?
}
