import Dispatch
import Foundation
import TinyDependency

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// Counts how often each named value was built; each container builds its own log.
///
/// `@unchecked Sendable`: `counts` is only touched on `queue`, a serial queue.
final class BuildLog: @unchecked Sendable {
  private let queue = DispatchQueue(label: "BuildLog")
  private var counts: [String: Int] = [:]

  func built(_ name: String) {
    queue.sync { counts[name, default: 0] += 1 }
  }

  func count(_ name: String) -> Int {
    queue.sync { counts[name, default: 0] }
  }
}

enum BuildLogKey: DependencyKey {
  static var defaultValue: BuildLog { BuildLog() }
}

/// A value with identity, to tell one build from another.
final class Service: Sendable, CustomStringConvertible {
  let name: String
  init(_ name: String) { self.name = name }
  var description: String { name }
}

// A diamond: Top reads Left and Right, both read Leaf.

enum LeafKey: DependencyKey {
  static var defaultValue: String {
    DependencyValues.current.buildLog.built("Leaf")
    return "leaf"
  }
}

enum LeftKey: DependencyKey {
  static var defaultValue: String {
    let values = DependencyValues.current
    values.buildLog.built("Left")
    return "left(\(values.leaf))"
  }
}

enum RightKey: DependencyKey {
  static var defaultValue: String {
    let values = DependencyValues.current
    values.buildLog.built("Right")
    return "right(\(values.leaf))"
  }
}

enum TopKey: DependencyKey {
  static var defaultValue: String {
    let values = DependencyValues.current
    values.buildLog.built("Top")
    return "top(\(values.left), \(values.right))"
  }
}

/// A key whose value says which context built it.
enum ContextNameKey: DependencyKey {
  static let defaultValue = "live"
  static let testValue = "test"
  static let previewValue = "preview"
}

/// A key that declares only a default value.
enum DefaultOnlyKey: DependencyKey {
  static let defaultValue = "default only"
}

/// A service built once per container, slowly, so that concurrent first reads overlap.
enum SlowServiceKey: DependencyKey {
  static var defaultValue: Service {
    DependencyValues.current.buildLog.built("SlowService")
    usleep(50_000)
    return Service("slow")
  }
}

/// A service built on every read.
enum TransientServiceKey: DependencyKey {
  static var defaultValue: Service {
    DependencyValues.current.buildLog.built("TransientService")
    return Service("transient")
  }
  static var lifetime: DependencyLifetime { .transient }
}

/// A plain identified service, built once per container.
enum SharedServiceKey: DependencyKey {
  static var defaultValue: Service {
    DependencyValues.current.buildLog.built("SharedService")
    return Service("shared")
  }
}

/// A greeting, for overriding in scopes.
enum GreetingKey: DependencyKey {
  static let defaultValue = "hello"
}

/// A service that greets with the greeting it read while being built.
enum GreeterKey: DependencyKey {
  static var defaultValue: Service {
    let values = DependencyValues.current
    values.buildLog.built("Greeter")
    return Service("greeter says \(values.greeting)")
  }
}

extension DependencyValues {
  var buildLog: BuildLog {
    get { self[BuildLogKey.self] }
    set { self[BuildLogKey.self] = newValue }
  }
  var leaf: String {
    get { self[LeafKey.self] }
    set { self[LeafKey.self] = newValue }
  }
  var left: String {
    get { self[LeftKey.self] }
    set { self[LeftKey.self] = newValue }
  }
  var right: String {
    get { self[RightKey.self] }
    set { self[RightKey.self] = newValue }
  }
  var top: String {
    get { self[TopKey.self] }
    set { self[TopKey.self] = newValue }
  }
  var contextName: String {
    get { self[ContextNameKey.self] }
    set { self[ContextNameKey.self] = newValue }
  }
  var greeting: String {
    get { self[GreetingKey.self] }
    set { self[GreetingKey.self] = newValue }
  }
  var greeter: Service {
    get { self[GreeterKey.self] }
    set { self[GreeterKey.self] = newValue }
  }
  var sharedService: Service {
    get { self[SharedServiceKey.self] }
    set { self[SharedServiceKey.self] = newValue }
  }
}

/// Runs `body` on `count` threads at once and returns their results in order, once every thread
/// has ended (and released what `body` captured).
///
/// Each runs on a thread of its own: a build that blocks there never waits for a dispatch worker
/// that other tests' blocked builds hold.
func onThreads<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
  let results = ResultSlots<T>(count)
  let joins = (0..<count).map { index in startThread { results[index] = body(index) } }
  for join in joins { join() }
  return results.values
}

/// ``onThreads(_:_:)``, awaited: the test's task gives its thread back to the concurrency pool
/// while the threads run. A test that blocks a pool thread for seconds starves the async tests
/// running beside it (on two cores, two such tests stop them all), and their deadlines pass.
func onThreads<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) async -> [T] {
  let handoff = Handoff(body)
  return await withCheckedContinuation { continuation in
    onNewThread {
      // `body` is released here before the test resumes, as with the synchronous form.
      let results = onThreads(count, handoff.take())
      continuation.resume(returning: results)
    }
  }
}

/// A value passed to another thread once, and not kept there after it is taken.
///
/// `@unchecked Sendable`: `value` is set at creation and taken once, on the thread it is for.
final class Handoff<Value>: @unchecked Sendable {
  private var value: Value?

  init(_ value: Value) { self.value = value }

  func take() -> Value {
    defer { value = nil }
    return value!
  }
}

/// Starts `body` on a new thread; the function returned waits for the thread to end, by which
/// time it has released `body` and what it captured.
func startThread(_ body: @escaping @Sendable () -> Void) -> () -> Void {
  let context = Unmanaged.passRetained(Handoff(body)).toOpaque()
  #if canImport(Darwin)
    var thread: pthread_t?
  #else
    var thread = pthread_t()
  #endif
  let status = pthread_create(
    &thread,
    nil,
    { raw in
      #if canImport(Darwin)
        let handoff = Unmanaged<Handoff<@Sendable () -> Void>>.fromOpaque(raw)
      #else
        let handoff = Unmanaged<Handoff<@Sendable () -> Void>>.fromOpaque(raw!)
      #endif
      handoff.takeRetainedValue().take()()
      return nil
    },
    context
  )
  precondition(status == 0, "pthread_create: \(status)")
  return {
    #if canImport(Darwin)
      pthread_join(thread!, nil)
    #else
      pthread_join(thread, nil)
    #endif
  }
}

/// Runs `body` on a new thread, never on a dispatch worker. The tests' builds block on
/// semaphores and on other threads' builds; on a two-core machine, the few dispatch workers
/// they would hold are the ones the work they wait for needs, and a loaded run stalls.
func onNewThread(_ body: @escaping @Sendable () -> Void) {
  Thread.detachNewThread(body)
}

/// Slots written from several threads.
///
/// `@unchecked Sendable`: `slots` is only touched on `queue`, a serial queue.
final class ResultSlots<T: Sendable>: @unchecked Sendable {
  private let queue = DispatchQueue(label: "ResultSlots")
  private var slots: [T?]

  init(_ count: Int) { slots = Array(repeating: nil, count: count) }

  subscript(index: Int) -> T? {
    get { queue.sync { slots[index] } }
    set { queue.sync { slots[index] = newValue } }
  }

  var values: [T] { queue.sync { slots.compactMap { $0 } } }
}

/// The growth of the process's peak resident memory, in bytes, over `iterations` runs of `body`
/// after a tenth of them as warm-up.
func residentGrowth(iterations: Int, _ body: (Int) -> Void) -> Int {
  for index in 0..<(iterations / 10) { body(index) }
  let before = peakResidentBytes()
  for index in 0..<iterations { body(index) }
  return peakResidentBytes() - before
}

/// The peak resident memory of this process, in bytes.
func peakResidentBytes() -> Int {
  var usage = rusage()
  #if canImport(Darwin)
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss)
  #else
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int(usage.ru_maxrss) * 1024
  #endif
}

/// Whether this process runs under AddressSanitizer, whose runtime defines `__asan_init`.
let runsUnderAddressSanitizer: Bool = {
  #if canImport(Darwin)
    dlsym(UnsafeMutableRawPointer(bitPattern: -2), "__asan_init") != nil
  #else
    dlsym(nil, "__asan_init") != nil
  #endif
}()
