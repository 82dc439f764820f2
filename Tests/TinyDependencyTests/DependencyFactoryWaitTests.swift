import Dispatch
import Foundation
import TestSubprocess
import Testing
import TinyDependency
import TinyDependencyFactories

/// A cached factory's call that waits for another thread's build of the same product waits as a
/// read waits (DESIGN.md, decision 8): through the core's loop check and its long-wait warning.
@Suite("Cached factories wait for a product as reads wait for a value")
struct DependencyFactoryWaitTests {
  #if compiler(>=6.2) && (os(macOS) || os(Linux))
    /// Two threads each make a product that calls for the other's: a loop only visible across
    /// threads, which stops with both products' keys instead of hanging.
    @Test(.oneExitTestAtATime)
    func productsWaitingForEachOtherAcrossThreadsStop() async throws {
      let result = try await #require(
        processExitsWith: .failure,
        observing: [\.standardErrorContent]
      ) {
        exitAfter(seconds: 8) {
          let factory = DependencyValues(context: .default)[CrossingFactoryKey.self]
          crossingFactory.set(factory)
          _ = onThreads(2) { index in factory(index) }
        }
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("CrossingFactoryKey -> CrossingFactoryKey"), "\(message)")
      #expect(message.contains("different threads"), "\(message)")
    }

    /// A product whose build hands work to another thread that calls the factory for the same
    /// argument: the wait is warned of, naming the key, as a read's is.
    @Test(.oneExitTestAtATime)
    func aProductHandedOffToAnotherThreadIsReportedAfterATimeout() async throws {
      let result = try await #require(
        processExitsWith: .exitCode(3),
        observing: [\.standardErrorContent]
      ) {
        exitAfter(seconds: 8) { _ = DependencyValues(context: .default)[HandOffFactoryKey.self](1) }
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("HandOffFactoryKey"), "\(message)")
      #expect(message.contains("blocking hand-off"), "\(message)")
    }
  #endif
}

/// Two products that meet, then each call the factory for the other's (the factory itself is
/// handed to them, since reading its key inside its own product would be a cycle on one thread).
private let factoryCrossing = Rendezvous()
private let crossingFactory = FactorySlot()

enum CrossingFactoryKey: DependencyKey {
  static var defaultValue: DependencyFactory<Int, String> {
    .cached { index in
      _ = factoryCrossing.meet("product\(index)", "product\(1 - index)")
      return "crossing(\(crossingFactory.get()?(1 - index) ?? ""))"
    }
  }
}

/// A factory handed from the test to its products.
///
/// `@unchecked Sendable`: `factory` is only touched with `lock` held (a pthread lock, which
/// ThreadSanitizer sees).
private final class FactorySlot: @unchecked Sendable {
  private let lock = NSLock()
  private var factory: DependencyFactory<Int, String>?

  func set(_ factory: DependencyFactory<Int, String>) { lock.withLock { self.factory = factory } }

  func get() -> DependencyFactory<Int, String>? { lock.withLock { factory } }
}

/// A product that hands work to another thread and blocks on it; that work calls for the same
/// product.
enum HandOffFactoryKey: DependencyKey {
  static var defaultValue: DependencyFactory<Int, String> {
    .cached { index in
      let done = DispatchSemaphore(value: 0)
      let result = ResultSlots<String>(1)
      withEscapedDependencies { continuation in
        onNewThread {
          result[0] = continuation.yield { DependencyValues.current[HandOffFactoryKey.self](index) }
          done.signal()
        }
      }
      done.wait()
      return "hand-off(\(result[0] ?? ""))"
    }
  }
}
