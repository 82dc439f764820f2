import Testing
import TinyDependency

@Suite("Scoping against a reference model")
struct ScopingModelTests {
  /// Random sequences per test run, each with its own container.
  static let sequenceCount = 3_000

  // MARK: - The reference model on its own

  @Test func modelReadsTheInnermostOverrideElseTheDefault() {
    var model = ModelScopes()
    let outer = model.enter(ModelScopes.root, overriding: [(.a, "a1"), (.b, "b1")])
    let inner = model.enter(outer, overriding: [(.a, "a2")])
    #expect(model.value(.a, in: inner) == "a2")
    #expect(model.value(.b, in: inner) == "b1")
    #expect(model.value(.c, in: inner) == "c0")
    #expect(model.value(.d, in: inner) == "d(a2,b1)")
    #expect(model.value(.e, in: inner) == "e(d(a2,b1),c0)")
    #expect(model.value(.a, in: ModelScopes.root) == "a0")
  }

  @Test func modelLetsNewerOverridesOfTheCurrentScopeWin() {
    var model = ModelScopes()
    let made = model.enter(ModelScopes.root, overriding: [(.a, "made")])
    let later = model.enter(ModelScopes.root, overriding: [(.a, "later"), (.b, "b1")])
    let unrelated = model.enter(ModelScopes.root, overriding: [(.c, "c1")])
    #expect(model.value(.a, madeIn: made, readIn: later) == "later")
    #expect(model.value(.d, madeIn: made, readIn: later) == "d(later,b1)")
    #expect(model.value(.a, madeIn: made, readIn: unrelated) == "made")
    #expect(model.value(.c, madeIn: made, readIn: unrelated) == "c1")
    #expect(model.value(.e, madeIn: made, readIn: unrelated) == "e(d(made,b0),c1)")
  }

  @Test func modelKeepsTheCapturedOverrideOverAnEnclosingScope() {
    var model = ModelScopes()
    let enclosing = model.enter(ModelScopes.root, overriding: [(.a, "enclosing")])
    let made = model.enter(enclosing, overriding: [(.a, "inner")])
    let nested = model.enter(made, overriding: [(.b, "nested")])
    #expect(model.value(.a, madeIn: made, readIn: enclosing) == "inner")
    #expect(model.value(.a, madeIn: made, readIn: ModelScopes.root) == "inner")
    #expect(model.value(.a, madeIn: made, readIn: nested) == "inner")
    #expect(model.value(.b, madeIn: made, readIn: nested) == "nested")
    #expect(model.value(.b, madeIn: nested, readIn: made) == "nested")
  }

  // MARK: - The library against the model

  /// To replay a failure, run `ModelSequence(seed:)` with the seed its message prints.
  ///
  /// The sequences run on a thread of their own: they take minutes under ThreadSanitizer, and a
  /// concurrency-pool thread held that long starves the async tests running beside them.
  @Test func randomSequencesReadWhatTheModelPredicts() async {
    let failures = await onThreads(1) { _ in
      var failures: [String] = []
      for index in 0..<Self.sequenceCount {
        let sequence = ModelSequence(seed: 0x5C0_9E00_0000 + UInt64(index))
        sequence.run()
        guard let failure = sequence.failure else { continue }
        failures.append("\(failure)")
        if failures.count == 5 { break }
      }
      return failures
    }
    for failure in failures[0] { Issue.record("\(failure)") }
  }

  // MARK: - Values that hold wrappers

  /// An object that is a key's value, read through `DependencyValues.current`, is made in the
  /// scope it is read in, so by the model it reads that scope's values. Its build read no key,
  /// but it captured its scope, so the library must not share it with the scopes around that
  /// one: the first scope's override of `a` would leak into the root and a sibling scope.
  @Test func objectBuiltAsAValueReadsTheScopeItIsReadIn() {
    var model = ModelScopes()
    let first = model.enter(ModelScopes.root, overriding: [(.a, "first")])
    let sibling = model.enter(ModelScopes.root, overriding: [(.b, "sibling")])
    withDependencies(DependencyValues(context: .test)) {
      withDependencies {
        $0.modelA = "first"
      } operation: {
        #expect(DependencyValues.current.modelReader.read(.a) == model.value(.a, in: first))
      }
      withDependencies {
        $0.modelB = "sibling"
      } operation: {
        #expect(DependencyValues.current.modelReader.read(.a) == model.value(.a, in: sibling))
      }
      let root = ModelScopes.root
      #expect(DependencyValues.current.modelReader.read(.a) == model.value(.a, in: root))
    }
  }
}
