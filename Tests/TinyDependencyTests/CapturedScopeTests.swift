import TestSubprocess
import Testing

@testable import TinyDependency

/// Objects read in another scope than the one they were made in
/// (Sources/TinyDependency/Container/CapturedScope.swift): what the reading scope caches of a
/// capture's decision, and how long what it points to lives.
@Suite("Objects read in other scopes keep the scope they were made in")
struct CapturedScopeTests {
  /// An object made in a scope (its wrappers keep the scope) and one built as a value there
  /// (its wrappers do not) share the scope's serial; the first, read in the scope around,
  /// leaves a decision there that points to the scope. Once the scope is gone, reading the
  /// second there must not follow it.
  @Test func aValueBuiltInAScopeReadsRightAfterTheScopeAndItsObjectsAreGone() {
    var outer = DependencyValues(context: .test)
    outer.leaf = "outer"
    var greeter: DependencyTests.Greeter?
    var handler: Handler?
    weak var inner: DependencyStorage?
    withDependencies(outer) {
      withDependencies {
        $0.greeting = "inner"
      } operation: {
        greeter = DependencyTests.Greeter()
        handler = DependencyValues.current[HandlerKey.self]
        inner = DependencyValues.current.storage
      }
      #expect(greeter?.greeting == "inner")
    }
    greeter = nil
    #expect(inner == nil, "nothing but the greeter kept the inner scope")
    // Storages made now may take the inner scope's address.
    var others: [DependencyValues] = []
    for _ in 0..<64 {
      var other = outer
      other.greeting = "another scope"
      others.append(other)
    }
    #expect(withDependencies(outer) { handler?.greeting } == "inner")
    withExtendedLifetime(others) {}
  }

  /// An object made in a scope reads, in a sibling scope that changed none of a value's inputs,
  /// the value its own scope built, whether or not a value built in that scope was read there
  /// first.
  @Test(arguments: [false, true])
  func anObjectReadsItsScopesValueInASiblingWhateverWasReadThereFirst(valueFirst: Bool) {
    let outer = DependencyValues(context: .test)
    var sibling = outer
    sibling.leaf = "sibling"
    let (greeter, handler, built) = withDependencies(outer) {
      withDependencies {
        $0.greeting = "inner"
      } operation: {
        (
          DependencyTests.Greeter(), DependencyValues.current[HandlerKey.self],
          DependencyValues.current.greeter
        )
      }
    }
    let read = withDependencies(sibling) {
      if valueFirst { _ = handler.service }
      let read = greeter.service
      _ = handler.service
      return read
    }
    #expect(read === built)
  }

  /// An object made in a request's scope and handed to a scope that lives longer (a worker's,
  /// a sibling of the request's) is read there through a combination of both; once the object
  /// is gone, the request's scope and what it built go too, while the worker's scope lives on.
  ///
  /// (With the scope keeping its own capture, whose decision for the worker kept the combined
  /// storage deriving from the scope, only the worker's scope going away broke the cycle:
  /// 100,000 requests read so grew resident memory by about 256 MiB.)
  @Test func aScopeReadInALongerLivedSiblingGoesAwayWithItsObjects() {
    let app = DependencyValues(context: .test)
    var worker = app
    worker.leaf = "worker"
    weak var request: DependencyStorage?
    do {
      let greeter = withDependencies(app) {
        withDependencies {
          $0.greeting = "request"
        } operation: {
          request = DependencyValues.current.storage
          return DependencyTests.Greeter()
        }
      }
      #expect(withDependencies(worker) { greeter.greeting } == "request")
    }
    #expect(request == nil, "the worker's scope kept the request's scope")
    withExtendedLifetime(worker) {}
  }

  /// The first test's reads on several threads, while another thread lets the scope go: each
  /// read of the value built there finds the scope's overrides.
  @Test func readsOfAValueBuiltInAScopeRaceItsLastObjectGoingAway() async {
    for round in 0..<50 {
      let outer = DependencyValues(context: .test)
      let kept = Locked<DependencyTests.Greeter?>(nil)
      let handler = withDependencies(outer) {
        let (greeter, handler) = withDependencies {
          $0.greeting = "inner \(round)"
        } operation: {
          (DependencyTests.Greeter(), DependencyValues.current[HandlerKey.self])
        }
        _ = greeter.greeting
        kept.withLock { $0 = greeter }
        return handler
      }
      let mismatches = await onThreads(4) { thread in
        var mismatches = 0
        var others: [DependencyValues] = []
        for read in 0..<200 {
          if thread == 0 && read == 20 {
            let last = kept.withLock { kept in
              defer { kept = nil }
              return kept
            }
            withExtendedLifetime(last) {}
            // Storages made now may take the inner scope's address.
            for _ in 0..<16 {
              var other = outer
              other.greeting = "another scope"
              others.append(other)
            }
          }
          let greeting = withDependencies(outer) { handler.greeting }
          if greeting != "inner \(round)" { mismatches += 1 }
        }
        withExtendedLifetime(others) {}
        return mismatches
      }
      #expect(mismatches == [0, 0, 0, 0])
    }
  }

  // AddressSanitizer keeps freed memory in quarantine, so resident memory is only measured
  // without it.
  #if compiler(>=6.2) && (os(macOS) || os(Linux))
    /// A server's loop: objects made in each request's scope and read there and after it,
    /// beside an object and a value of the app's read in each request.
    @Test(.oneExitTestAtATime, .enabled(if: !runsUnderAddressSanitizer))
    func objectsMadeAndReadInRequestScopesLeaveMemoryFlat() async {
      await #expect(processExitsWith: .success) {
        var app = DependencyValues(context: .test)
        app.greeting = "app"
        let (appObject, appValue) = withDependencies(app) {
          withDependencies {
            $0.leaf = "app scope"
          } operation: {
            (DependencyTests.Greeter(), DependencyValues.current[HandlerKey.self])
          }
        }
        withDependencies(app) {
          let growth = residentGrowth(iterations: 100_000) { index in
            let request = withDependencies {
              $0.leaf = "r-\(index)"
            } operation: {
              let request = DependencyTests.Greeter()
              precondition(request.leaf == "r-\(index)")
              precondition(request.service.name == "greeter says app")
              precondition(appObject.leaf == "r-\(index)")
              precondition(appObject.greeting == "app")
              precondition(appValue.greeting == "app")
              return request
            }
            precondition(request.leaf == "r-\(index)")
            precondition(appObject.leaf == "app scope")
          }
          precondition(growth < 16 << 20, "grew by \(growth >> 20) MiB")
        }
      }
    }
  #endif
}
