import TinyDependency
import TinyDependencyLifecycle

/// A signed-in user's session: what belongs to one user is built in it and ends with it.
enum UserSession: DependencyScope {}

/// Who is signed in; set on each session as it begins.
enum SignedInUserKey: DependencyKey {
  static let defaultValue = "guest"
  static let testValue = "tester"
}

extension DependencyValues {
  var signedInUser: String {
    get { self[SignedInUserKey.self] }
    set { self[SignedInUserKey.self] = newValue }
  }
}

/// The signed-in user's unsent drafts: one per session, cleared when the session ends.
actor Drafts: DependencyShutdown {
  let owner: String
  private let logger: any Logger
  private(set) var items: [String] = []

  init(owner: String, logger: any Logger) {
    self.owner = owner
    self.logger = logger
  }

  func add(_ draft: String) { items.append(draft) }

  /// Called by the session's `end()`: nothing of this user stays behind.
  func shutdown() async throws {
    logger.log("cleared \(items.count) draft(s) of \(owner)")
    items = []
  }
}

enum DraftsKey: DependencyKey {
  static var defaultValue: Drafts {
    let values = DependencyValues.current
    return Drafts(owner: values.signedInUser, logger: values.logger)
  }
  // Built the same way in tests, from the test values of what it reads.
  static var testValue: Drafts { defaultValue }
  static var lifetime: DependencyLifetime { .scoped(UserSession.self) }
}

extension DependencyValues {
  var drafts: Drafts {
    get { self[DraftsKey.self] }
    set { self[DraftsKey.self] = newValue }
  }
}

/// Signs each user in turn in, writes a draft, and signs them out; returns what each saw.
func signInAndOut(_ users: [String], in values: DependencyValues) async -> [String] {
  var lines: [String] = []
  for user in users {
    let session = values.beginScope(UserSession.self) { $0.signedInUser = user }
    let drafts = await session.run {
      let drafts = DependencyValues.current.drafts
      await drafts.add("Note from \(user)")
      return await drafts.items
    }
    lines.append("Signed in as \(user): drafts \(drafts)")
    do {
      try await session.end()
    } catch {
      lines.append("Sign-out of \(user) failed: \(error)")
    }
    lines.append("Signed out \(user)")
  }
  return lines
}
