// Compiled copies of the code blocks in the DocC catalogs (Sources/*/*.docc). DocCArticlesTests
// checks that every ```swift block there appears here line for line; edit both together.

import Foundation
import Testing
import TinyDependency
import TinyDependencyBuiltins
import TinyDependencyTesting
import XCTest

// MARK: - Getting started

struct Mailer: Sendable {
  var send: @Sendable (_ address: String, _ body: String) -> Bool
}

enum MailerKey: DependencyKey {
  static let defaultValue = Mailer { address, body in
    print("sending to \(address): \(body)")
    return true
  }
  static let testValue = Mailer { _, _ in true }
}

extension DependencyValues {
  var mailer: Mailer {
    get { self[MailerKey.self] }
    set { self[MailerKey.self] = newValue }
  }
}

struct WelcomeFlow {
  @Dependency(\.mailer) var mailer

  func welcome(_ address: String) -> Bool {
    mailer.send(address, "Welcome aboard!")
  }
}

func welcomeWithFailingMail() -> Bool {
  withDependencies {
    $0.mailer = Mailer { _, _ in false }
  } operation: {
    WelcomeFlow().welcome("ada@example.com")  // false: the override is used
  }
}

// MARK: - Choosing values for each context

struct Greeter: Sendable {
  var greet: @Sendable (_ name: String) -> String
}

enum GreeterKey: DependencyKey {
  static let defaultValue = Greeter { "Hello, \($0)!" }
  static let testValue = Greeter { "test: hello, \($0)" }
  static let previewValue = Greeter { "preview: hi, \($0)" }
}

extension DependencyValues {
  var greeter: Greeter {
    get { self[GreeterKey.self] }
    set { self[GreeterKey.self] = newValue }
  }
}

func greetingsForEachContext() -> [String] {
  DependencyContext.allCases.map { context in
    let values = DependencyValues(context: context)
    return values.greeter.greet("Ada")
  }
  // ["Hello, Ada!", "test: hello, Ada", "preview: hi, Ada"]
}

func previewGreeting() -> String {
  withDependencies {
    $0.context = .preview
  } operation: {
    DependencyValues.current.greeter.greet("Ada")  // "preview: hi, Ada"
  }
}

/// A shopping cart: a reference type, so every reader of one container shares it.
final class Cart: Sendable {
  let owner: String
  init(owner: String) { self.owner = owner }
}

enum CartKey: DependencyKey {
  static var defaultValue: Cart { Cart(owner: "guest") }  // one per container, on first read
}

func cartsPerContainer() -> [Bool] {
  let values = DependencyValues()
  let other = DependencyValues()
  return [
    values[CartKey.self] === values[CartKey.self],  // true: built once, then reused
    values[CartKey.self] === other[CartKey.self],  // false: each container builds its own
  ]
}

enum TicketNumberKey: DependencyKey {
  static var defaultValue: Int { Int.random(in: 1...9_999) }
  static var lifetime: DependencyLifetime { .transient }  // a new number on every read
}

enum ServiceURLKey: DependencyInputKey {
  typealias Value = String
  static let testValue = "https://service.test.invalid"  // tests need not set it
}

// MARK: - Scoping and capturing dependencies

func nestedScopes() -> [String] {
  withDependencies {
    $0.greeter = Greeter { "outer: \($0)" }
  } operation: {
    let inner = withDependencies {
      $0.greeter = Greeter { "inner: \($0)" }
    } operation: {
      DependencyValues.current.greeter.greet("B")
    }
    return [inner, DependencyValues.current.greeter.greet("A")]
  }
  // ["inner: B", "outer: A"]
}

func childTaskGreeting() async -> String {
  await withDependencies {
    $0.greeter = Greeter { "scoped: \($0)" }
  } operation: {
    await Task { DependencyValues.current.greeter.greet("child") }.value  // "scoped: child"
  }
}

struct WelcomeBanner {
  @Dependency(\.greeter) var greeter

  func text(for name: String) -> String { greeter.greet(name) }
}

func bannerCapture() -> [String] {
  let banner = withDependencies {
    $0.greeter = Greeter { "made in scope: \($0)" }
  } operation: {
    WelcomeBanner()
  }
  let kept = banner.text(for: "A")  // "made in scope: A": it kept its scope
  let newer = withDependencies {
    $0.greeter = Greeter { "newer: \($0)" }
  } operation: {
    banner.text(for: "B")  // "newer: B": an override newer than the capture wins
  }
  return [kept, newer]
}

func detachedGreetings() async -> [String] {
  await withDependencies {
    $0.greeter = Greeter { "scoped: \($0)" }
  } operation: {
    let detached = await Task.detached {
      DependencyValues.current.greeter.greet("detached")  // the process root's value
    }.value
    let escaped = await withEscapedDependencies { continuation in
      await Task.detached {
        continuation.yield {
          DependencyValues.current.greeter.greet("escaped")  // "scoped: escaped"
        }
      }.value
    }
    return [detached, escaped]
  }
}

// MARK: - Using explicit containers in servers

enum TenantKey: DependencyInputKey {
  typealias Value = String
}

struct InvoiceRenderer: Sendable {
  var tenant: String
  var greeter: Greeter

  func render(cents: Int) -> String {
    "\(tenant): \(greeter.greet("customer")) You owe \(cents) cents."
  }
}

enum InvoiceRendererKey: DependencyKey {
  static var defaultValue: InvoiceRenderer {
    let values = DependencyValues.current
    return InvoiceRenderer(tenant: values[TenantKey.self], greeter: values.greeter)
  }
  // Built the same way in tests, from the test values of what it reads.
  static var testValue: InvoiceRenderer { defaultValue }
}

extension DependencyValues {
  var invoiceRenderer: InvoiceRenderer {
    get { self[InvoiceRendererKey.self] }
    set { self[InvoiceRendererKey.self] = newValue }
  }
}

func renderInvoice(tenant: String?, cents: Int) -> String? {
  var request = DependencyValues(context: .default)
  if let tenant { request[TenantKey.self] = tenant }
  guard request.unsetInputs(among: [TenantKey.self]).isEmpty else { return nil }
  return request.invoiceRenderer.render(cents: cents)
  // renderInvoice(tenant: "acme", cents: 250):
  // "acme: Hello, customer! You owe 250 cents."
}

struct InvoiceHandler {
  @Dependency(\.invoiceRenderer) var renderer

  func respond(cents: Int) async -> String {
    renderer.render(cents: cents)
  }
}

func serveInvoice(tenant: String, cents: Int) async -> String {
  var request = DependencyValues(context: .default)
  request[TenantKey.self] = tenant
  return await withDependencies(request) {
    await InvoiceHandler().respond(cents: cents)
  }
}

/// Connections to a database: expensive, so one per app rather than one per request.
final class ConnectionPool: Sendable {}

enum ConnectionPoolKey: DependencyKey {
  static var defaultValue: ConnectionPool { ConnectionPool() }
  static var testValue: ConnectionPool { ConnectionPool() }
}

func poolsOfTwoRequests() -> Bool {
  let app = DependencyValues(context: .default)  // made once, at start-up
  var first = app
  first[TenantKey.self] = "acme"
  var second = app
  second[TenantKey.self] = "zeta"
  // The pool reads nothing the requests set, so the one the first request built is shared.
  return first[ConnectionPoolKey.self] === second[ConnectionPoolKey.self]  // true
}

// MARK: - Testing with dependencies

@Suite(.dependency(\.greeter, Greeter { "suite: \($0)" }))
struct WelcomeBannerTests {
  @Test func usesTheSuiteGreeter() {
    #expect(WelcomeBanner().text(for: "Ada") == "suite: Ada")
  }

  @Test(.dependencies { $0.greeter = Greeter { "test: \($0)" } })
  func testTraitNestsInsideTheSuiteTrait() {
    #expect(WelcomeBanner().text(for: "Ada") == "test: Ada")
  }
}

@Test(.strictDependencies)
func welcomeReadsOnlyTestValues() {
  #expect(WelcomeFlow().welcome("ada@example.com"))
}

@Test func articleKeysAreReadyForTests() {
  DependencyValidator.check([MailerKey.self, GreeterKey.self, InvoiceRendererKey.self]) {
    $0[TenantKey.self] = "acme"
  }
}

final class WelcomeFlowXCTests: XCTestCase {
  override func invokeTest() {
    withTestDependencies(strict: true) { super.invokeTest() }
  }

  func testWelcomeSendsMail() {
    XCTAssertTrue(WelcomeFlow().welcome("ada@example.com"))
  }
}

// MARK: - Reading the dependency graph

func invoiceGraph() -> DependencyGraph {
  DependencyGraph.trace([InvoiceRendererKey.self]) {
    $0[TenantKey.self] = "acme"
  }
}

func invoiceGraphWithoutTenant() -> DependencyGraph {
  DependencyGraph.trace([InvoiceRendererKey.self])
}

func builtSoFar() -> DependencyGraph {
  var values = DependencyValues(context: .test)
  values[TenantKey.self] = "acme"
  _ = values.invoiceRenderer.render(cents: 1)
  return values.graph  // the same nodes and edges as invoiceGraph()
}

// MARK: - Migrating from the original TinyDependency

struct Theme: Sendable, Equatable {
  var accent: String
}

private struct ThemeKey: DependencyKey {
  static let defaultValue = Theme(accent: "blue")
  static let testValue = Theme(accent: "gray")
  static let previewValue = Theme(accent: "pink")
}

extension DependencyValues {
  var theme: Theme {
    get { self[ThemeKey.self] }
    set { self[ThemeKey.self] = newValue }
  }
}

final class ThemedButton {
  @Dependency(\.theme) var theme

  var accent: String { theme.accent }
}

func themedButtons() -> [String] {
  let plain = ThemedButton()
  let dark = withDependencies {
    $0.theme = Theme(accent: "black")
  } operation: {
    ThemedButton()
  }
  return [plain.accent, dark.accent]  // in tests: ["gray", "black"]
}

// MARK: - Migrating from swift-dependencies

struct NumberFactClient: Sendable {
  var fetch: @Sendable (_ number: Int) async throws -> String
}

extension NumberFactClient: DependencyKey {
  static let defaultValue = NumberFactClient { number in
    "\(number) is a good number."  // the live implementation: a network request, say
  }
  static let testValue = NumberFactClient { number in
    "\(number) is a test number."
  }
}

extension DependencyValues {
  var numberFact: NumberFactClient {
    get { self[NumberFactClient.self] }
    set { self[NumberFactClient.self] = newValue }
  }
}

struct NumberFactModel {
  @Dependency(\.numberFact) var numberFact
  @Dependency(\.context) var context

  func fact(about number: Int) async throws -> String {
    try await numberFact.fetch(number)
  }
}

func overriddenFact() async throws -> String {
  try await withDependencies {
    $0.numberFact.fetch = { number in "\(number) is overridden." }
  } operation: {
    try await NumberFactModel().fact(about: 42)  // "42 is overridden."
  }
}

struct UserClient: Sendable {
  var fetchUser: @Sendable (_ id: Int) async throws -> String
  var count: @Sendable () -> Int
  var track: @Sendable (_ event: String) -> Void
}

extension UserClient: DependencyKey {
  static let defaultValue = UserClient(
    fetchUser: { id in "user \(id)" },  // the live implementation
    count: { 0 },
    track: { _ in }
  )
  static let testValue = UserClient(
    fetchUser: unimplemented("UserClient.fetchUser"),
    count: unimplemented("UserClient.count", placeholder: 0),
    track: unimplemented("UserClient.track")
  )
}

// MARK: - TinyDependencyTesting

@Suite(.dependencies)
struct InvoiceTests {
  @Test(.dependency(\.greeter, Greeter { "Dear \($0)," }))
  func rendersWithTheTenant() {
    let invoice = withDependencies {
      $0[TenantKey.self] = "acme"
    } operation: {
      DependencyValues.current.invoiceRenderer.render(cents: 250)
    }
    #expect(invoice == "acme: Dear customer, You owe 250 cents.")
  }

  @Test func invoiceKeysHaveTestValues() {
    let report = DependencyValidator.validate([InvoiceRendererKey.self]) {
      $0[TenantKey.self] = "acme"
    }
    #expect(report.isComplete, "\(report)")
  }
}

// MARK: - TinyDependencyBuiltins

struct DayGreeting {
  @Dependency(\.date.now) var now
  @Dependency(\.calendar) var calendar

  func text() -> String {
    calendar.component(.hour, from: now) < 12 ? "Good morning" : "Good afternoon"
  }
}

@Test(
  .dependencies {
    var utc = Calendar(identifier: .gregorian)
    utc.timeZone = TimeZone(secondsFromGMT: 0)!
    $0.calendar = utc
    $0.date.now = Date(timeIntervalSince1970: 8 * 3600)
  }
)
func greetsTheMorning() {
  #expect(DayGreeting().text() == "Good morning")
}

actor Countdown {
  @Dependency(\.continuousClock) var clock
  private(set) var remaining: Int

  init(from seconds: Int) { remaining = seconds }

  func run() async throws {
    while remaining > 0 {
      try await clock.sleep(for: .seconds(1))
      remaining -= 1
    }
  }
}

@Test func countdownCountsOncePerSecond() async throws {
  let clock = TestClock()
  let countdown = withDependencies {
    $0.continuousClock = clock
  } operation: {
    Countdown(from: 3)
  }
  let task = Task { try await countdown.run() }
  await clock.waitForSleepers(1)
  await clock.advance(by: .seconds(2))
  #expect(await countdown.remaining == 1)
  await clock.run()
  #expect(await countdown.remaining == 0)
  try await task.value
}
