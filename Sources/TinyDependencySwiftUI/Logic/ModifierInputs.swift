/// What a `.dependencies` or `.dependency` modifier was given, compared on each redraw: the
/// modifier derives its container again only when these differ from the last redraw's.
///
/// A part is compared with `==`; a value that is not `Equatable` is compared by identity when
/// it is an object, and not at all otherwise (pass an `id` to the modifier for those).
struct ModifierInputs: Sendable {
  private var parts: [any Equatable & Sendable] = []

  /// Inputs that never change: a closure, which cannot be compared.
  init() {}

  /// Inputs that change when `id` does.
  init(id: some Hashable & Sendable) {
    parts = [id]
  }

  /// The inputs of `.dependency(keyPath, value)` for an `Equatable` value.
  init<Value: Equatable & Sendable>(
    keyPath: some Equatable & Sendable,
    value: Value
  ) {
    parts = [keyPath, value]
  }

  /// The inputs of `.dependency(keyPath, value)` for any value: its identity if it is an object.
  init<Value: Sendable>(keyPath: some Equatable & Sendable, value: Value) {
    parts = [keyPath]
    if type(of: value as Any) is AnyClass {
      parts.append(ObjectIdentifier(value as AnyObject))
    }
  }

  /// The same inputs with `id` added.
  func adding(id: some Hashable & Sendable) -> ModifierInputs {
    var inputs = self
    inputs.parts.append(id)
    return inputs
  }

  /// Whether these are the inputs `other` holds, part by part.
  func matches(_ other: ModifierInputs) -> Bool {
    parts.count == other.parts.count
      && zip(parts, other.parts).allSatisfy { lhs, rhs in lhs.isEqual(to: rhs) }
  }
}

extension Equatable {
  /// Whether `other` is a value of this type equal to this one.
  fileprivate func isEqual(to other: any Equatable) -> Bool {
    self == other as? Self
  }
}
