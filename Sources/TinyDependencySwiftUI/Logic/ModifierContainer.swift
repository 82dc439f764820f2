import TinyDependency

/// The container a `.dependencies` modifier derives from its parent, kept across redraws.
///
/// A view modifier holds one in `@State`, so there is one per modifier identity (its place in
/// the view tree). Each redraw asks it for the container with the parent it sees now and the
/// inputs it was given; it derives a child container only on the first redraw, when the parent
/// is another container (another storage: a parent modifier that derived again, or a new
/// preview root), or when the inputs changed (``ModifierInputs``). Otherwise the same container
/// comes back, with every value it built: a redraw never rebuilds the subtree's services.
@MainActor
final class ModifierContainer {
  private var parentNumber: UInt64?
  private var inputs: ModifierInputs?
  private var derived: DependencyValues?
  /// How many times a container was derived: once per parent and inputs.
  private(set) var derivations = 0

  nonisolated init() {}

  /// The container for this redraw: the kept one, or one derived from `parent` by `update`.
  func values(
    parent: DependencyValues,
    inputs: ModifierInputs,
    update: (inout DependencyValues) -> Void
  ) -> DependencyValues {
    if let derived, parentNumber == parent.containerNumber,
      let kept = self.inputs, kept.matches(inputs)
    {
      return derived
    }
    var child = parent
    DependencyOverrides.apply(update, to: &child)
    derived = child
    parentNumber = parent.containerNumber
    self.inputs = inputs
    derivations += 1
    return child
  }
}
