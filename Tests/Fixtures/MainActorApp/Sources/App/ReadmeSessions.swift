// The README's named scope and factory, as an app target compiles them (main-actor default).
import TinyDependency
import TinyDependencyFactories
import TinyDependencyLifecycle

enum UserSession: DependencyScope {}

private enum OwnerKey: DependencyKey { static let defaultValue = "guest" }

private enum BasketKey: DependencyKey {
  static var defaultValue: String { "basket of " + DependencyValues.current[OwnerKey.self] }
  static var lifetime: DependencyLifetime { .scoped(UserSession.self) }  // one per session
}

private enum OrderLabelKey: DependencyKey {
  static var defaultValue: DependencyFactory<Int, String> { .cached { "order \($0)" } }
}

func signIn() async throws -> (basket: String, label: String) {
  let session = DependencyValues.current.beginScope(UserSession.self) { $0[OwnerKey.self] = "ada" }
  let basket = session.run { DependencyValues.current[BasketKey.self] }
  let label = session.values[OrderLabelKey.self](7)  // made once per argument per container
  try await session.end()  // TinyDependencyLifecycle: shuts the session's values down
  return (basket, label)
}
