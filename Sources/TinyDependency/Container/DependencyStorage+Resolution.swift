/// The miss path, top to bottom: a read that found neither an override nor a built value on the
/// fast path. `value(for:id:in:)` is the one place that decides what to do next (reuse, wait,
/// share, build, stop), from the storage's entries (`DependencyStorage+Entries.swift`) and the
/// scopes around (`lookAbove`, `DependencyStorage+Sharing.swift`); `build` is the one place that
/// builds. No user code runs, and no thread waits, with a lock held.
extension DependencyStorage {
  /// Returns the value of `Key`, building it on first use.
  func value<Key: DependencyKey>(
    for key: Key.Type,
    id: ObjectIdentifier,
    in values: DependencyValues
  ) -> Key.Value {
    freeze()
    let lifetime = Key.lifetime.kind
    if lifetime == .transient {
      let frame = makeFrame(for: Key.self, reader: values.frame)
      let (box, trace) = build(Key.self, frame: frame, in: values)
      values.frame?.record(Key.self, inputs: trace.inputs, hold: trace.hold)
      return box.unbox(as: Key.Value.self)
    }
    // A scoped key's value is kept by its scope's nearest instance, and shared no higher.
    var limit: DependencyStorage?
    if case .scoped(let scope) = lifetime { limit = owner(of: scope, for: Key.self) }
    // The keys this scope placed itself, read with its entries: `lookAbove` counts them as
    // changed here.
    var placed: Set<ObjectIdentifier>?
    // With no scope around to ask (`lookAbove` would answer "build here"), the first look
    // claims the build: one lock and one lookup fewer on every first read of a root.
    var step = lookHere(
      Key.self,
      id,
      claiming: parent == nil || choosesContext || self === limit,
      &placed,
      values
    )
    // How often a claim was given back because a sibling reached the scope above first.
    var lateLooks = 0
    while true {
      switch step {
      case .reuse(let built):
        values.frame?.record(Key.self, inputs: built.inputs, hold: built.hold)
        return built.box.unbox(as: Key.Value.self)

      case .ended:
        stopReadAfterEnd(Key.self, context: context)

      case .wait(let builder):
        BuildFrame.wait(for: builder, reading: Key.self, observer: observer) {
          waitWhileBuilding(id, by: builder, timeout: $0)
        }
        step = lookHere(Key.self, id, claiming: false, &placed, values)

      case .build(let frame):
        step = .reuse(finishBuild(Key.self, id: id, frame: frame, marked: nil, limit, in: values))

      case .lookAbove:
        switch lookAbove(for: id, placed: placed, upTo: limit) {
        case .share(let built):
          step = state.withLock { state in
            if state.entries[id] == nil { adopt(built, as: id, in: &state) }
            return look(
              &state,
              for: id,
              claiming: false,
              frame: makeFrame(for: Key.self, reader: nil)
            )
          }
        case .wait(let builder, let owner):
          BuildFrame.wait(for: builder, reading: Key.self, observer: observer) {
            owner.waitWhileBuilding(id, by: builder, timeout: $0)
          }
          step = lookHere(Key.self, id, claiming: false, &placed, values)
        case .build(let highest):
          // Claim the build here, then announce it in `highest`, the highest scope around that
          // would keep the value, so that sibling scopes wait for it instead of building too.
          step = lookHere(Key.self, id, claiming: true, &placed, values)
          guard case .build(let frame) = step, let highest else { continue }
          if highest.mark(id, buildingBy: frame) {
            step = .reuse(
              finishBuild(Key.self, id: id, frame: frame, marked: highest, limit, in: values)
            )
          } else if lateLooks < Self.lateLookLimit {
            // A sibling scope's build or value reached `highest` after `lookAbove` looked:
            // give the claim back and look again, to wait for it or share it.
            lateLooks += 1
            withdrawClaim(of: id, by: frame)
            placed = placedHere
            step = .lookAbove
          }
        }
      }
    }
  }

  /// `look` under this storage's lock, with `placed` set to the keys this scope placed itself
  /// when the read goes on to the scopes around.
  private func lookHere<Key: DependencyKey>(
    _ key: Key.Type,
    _ id: ObjectIdentifier,
    claiming: Bool,
    _ placed: inout Set<ObjectIdentifier>?,
    _ values: DependencyValues
  ) -> Step {
    state.withLock { state in
      let step = look(
        &state,
        for: id,
        claiming: claiming,
        frame: makeFrame(for: Key.self, reader: values.frame)
      )
      if case .lookAbove = step { placed = state.placed?.keys }
      return step
    }
  }

  /// How often a read looks above again after a sibling scope announced the same build first.
  /// Past it, the entry found there is one this scope can't use, and it builds its own.
  private static var lateLookLimit: Int { 4 }

  private func makeFrame<Key: DependencyKey>(
    for key: Key.Type,
    reader: BuildFrame?
  ) -> BuildFrame {
    BuildFrame(keyType: Key.self, context: context, parent: reader, observer: observer)
  }

  /// Builds the value this thread claimed, keeps it, and offers it to the scopes around.
  private func finishBuild<Key: DependencyKey>(
    _ key: Key.Type,
    id: ObjectIdentifier,
    frame: BuildFrame,
    marked: DependencyStorage?,
    _ limit: DependencyStorage?,
    in values: DependencyValues
  ) -> BuiltValue {
    let (box, trace) = build(Key.self, frame: frame, in: values)
    let built = BuiltValue(
      box: box,
      inputs: trace.inputs,
      key: KeyType(Key.self),
      reads: trace.reads,
      hold: trace.hold
    )
    let placed = state.withLock { state in
      adopt(built, as: id, in: &state)
      return state.placed?.keys
    }
    state.broadcast()
    share(built, as: id, builtBy: frame, marked: marked, placed: placed, upTo: limit)
    // The instance owns it, also when built below it; built after its end, the read stops.
    if let limit, let instance = limit.instance {
      instance.keep(built, builtIn: self, owner: limit)
    }
    return built
  }

  /// Runs the key's builder with this storage bound as current and `frame` recording its reads;
  /// returns the value, boxed, and what the build read.
  ///
  /// Before it starts, the build is checked against the builds this thread already runs: the
  /// same key for the same context is a cycle, whatever container each level reads through
  /// (each may be a new storage, made inside the build before it), and a chain of builds about
  /// to use up the thread's stack stops with its path rather than overflowing it.
  ///
  /// Nothing here is generic over the value but the box: these functions run unspecialized for
  /// most keys, where each generic type costs a metadata lookup on every first read.
  private func build<Key: DependencyKey>(
    _ key: Key.Type,
    frame: BuildFrame,
    in values: DependencyValues
  ) -> (box: AnyBox, trace: BuildFrame.Trace) {
    if let path = frame.cyclePathOnThread() {
      Diagnostics.stopWithCycle(path, reentering: [Key.self], observer: observer)
    }
    if frame.depthOnThread > Diagnostics.stackCheckDepth
      && SystemInterface.isStackNearlyExhausted()
    {
      Diagnostics.stopWithNestingTooDeep(frame)
    }
    // Only the containers this build's code sees hold `binding`: one still held once the build
    // ended was kept by the value (or by work it started), with this scope (`BuildBinding`).
    var binding = BuildBinding(frame)
    let context = self.context
    let box: AnyBox = frame.runAsInnermost(on: ThreadBuilds.current) {
      var scoped = values
      scoped.binding = binding
      return scoped.bind { Key.boxedValue(for: context) }
    }
    if !isKnownUniquelyReferenced(&binding) { frame.noteCapture(.escapedScope) }
    let trace = frame.finish()
    if trace.fellBack && context == .test, let observer {
      let readers = values.frame?.activeReaderChain.map(\.keyType) ?? []
      observer.didFallBackToLive(Key.self, readers: readers)
    }
    return (box, trace)
  }
}
