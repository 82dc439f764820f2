public import Foundation
public import TinyDependency

extension DependencyValues {
  /// The notification center to post and observe with: `NotificationCenter.default` live.
  ///
  /// In tests, each test's container gets a notification center of its own, so notifications
  /// posted by one test never reach another. Previews use the live value.
  public var notificationCenter: NotificationCenter {
    get { self[NotificationCenterKey.self] }
    set { self[NotificationCenterKey.self] = newValue }
  }
}

/// The key of `\.notificationCenter`.
enum NotificationCenterKey: DependencyKey {
  static var defaultValue: NotificationCenter { .default }
  static var testValue: NotificationCenter { NotificationCenter() }
}
