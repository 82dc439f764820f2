// Code as an app target writes it: this module defaults to main-actor isolation with
// approachable concurrency (see Package.swift). The README's and the DocC catalog's blocks about
// apps are compiled here; DocumentationTests checks them line for line.
import TinyDependency

// MARK: - Quick start, as in the README

protocol Logger: Sendable {
  func log(_ message: String)
}

struct PrintLogger: Logger {
  var prefix = ""
  func log(_ message: String) { print(prefix + message) }
}

private enum LoggerKey: DependencyKey {
  static let defaultValue: any Logger = PrintLogger()
  static let testValue: any Logger = PrintLogger(prefix: "[test] ")
}

extension DependencyValues {
  var logger: any Logger {
    get { self[LoggerKey.self] }
    set { self[LoggerKey.self] = newValue }
  }
}

final class Checkout {
  @Dependency(\.logger) var logger

  func pay(cents: Int) {
    logger.log("charged \(cents) cents")
  }
}

func quickStart() {
  Checkout().pay(cents: 499)  // live: "charged 499 cents"; in tests: "[test] charged 499 cents"

  withDependencies {
    $0.logger = PrintLogger(prefix: "[scoped] ")
  } operation: {
    Checkout().pay(cents: 100)  // "[scoped] charged 100 cents"
  }
}

// MARK: - An API client read off the main actor

struct APIClient: Sendable {
  var baseURL: String
  var fetch: @Sendable (_ path: String) async throws -> String
}

enum APIClientKey: DependencyKey {
  static let defaultValue = APIClient(baseURL: "https://api.example.com") { path in
    "live \(path)"
  }
  static var testValue: APIClient {
    APIClient(baseURL: "https://api.test.invalid") { path in "test \(path)" }
  }
}

nonisolated extension DependencyValues {
  var api: APIClient {
    get { self[APIClientKey.self] }
    set { self[APIClientKey.self] = newValue }
  }
}

nonisolated func profile() async throws -> String {
  @Dependency(\.api) var api
  return try await api.fetch("/me")
}

actor Downloader {
  @Dependency(\.api) var api

  func download(_ path: String) async throws -> String {
    try await api.fetch(path)
  }
}

@MainActor
final class ProfileModel {
  @Dependency(\.api) var api
  var name = ""

  func load() async throws {
    name = try await api.fetch("/me")
  }
}

// MARK: - Reads and overrides in every isolation

nonisolated func readByKey() -> String {
  DependencyValues.current[APIClientKey.self].baseURL
}

nonisolated func readThroughProperty() -> String {
  DependencyValues.current.api.baseURL
}

nonisolated func readThroughWrapperByKey() -> String {
  @Dependency(APIClientKey.self) var api
  return api.baseURL
}

nonisolated func overrideInNonisolatedFunction() -> String {
  withDependencies {
    $0.api.baseURL = "scoped"
  } operation: {
    readThroughProperty()
  }
}

nonisolated func overrideInNonisolatedAsyncFunction() async throws -> String {
  try await withDependencies {
    $0.api.baseURL = "scoped"
  } operation: {
    try await profile()
  }
}

func readInDetachedTask() async -> String {
  await Task.detached {
    @Dependency(\.api) var api
    return withDependencies {
      $0.api.baseURL = "detached"
    } operation: {
      DependencyValues.current.api.baseURL + api.baseURL
    }
  }.value
}

extension Downloader {
  func downloadFromMirror(_ path: String) async throws -> String {
    try await withDependencies {
      $0.api.baseURL = "https://mirror.example.com"
    } operation: {
      try await api.fetch(path)
    }
  }
}

extension ProfileModel {
  func loadFromStaging() async throws {
    try await withDependencies {
      $0.api.baseURL = "https://staging.example.com"
    } operation: {
      try await load()
    }
  }
}

/// A class without an annotation: main-actor isolated by default in this module.
final class DefaultIsolatedModel {
  @Dependency(\.api) var api
  @Dependency(\.logger) var logger

  func load() async throws -> String {
    logger.log("loading")
    return try await withDependencies {
      $0.logger = PrintLogger(prefix: "[model] ")
    } operation: {
      try await api.fetch("/model")
    }
  }
}

// MARK: - Types of the app's own, off the main actor

nonisolated protocol Tracer: Sendable {
  func trace(_ message: String)
}

nonisolated struct PrintTracer: Tracer {
  func trace(_ message: String) { print(message) }
}

enum TracerKey: DependencyKey {
  static let defaultValue: any Tracer = PrintTracer()
}

nonisolated extension DependencyValues {
  var tracer: any Tracer {
    get { self[TracerKey.self] }
    set { self[TracerKey.self] = newValue }
  }
}

actor Uploader {
  @Dependency(\.tracer) var tracer

  func upload(_ path: String) {
    tracer.trace("uploading \(path)")
  }
}

// MARK: - Sendable classes and actors hold a Dependency in a let

nonisolated final class ImageCache: Sendable {
  let api = Dependency(\.api)
  let tracer = Dependency(\.tracer)

  func image(named name: String) async throws -> String {
    tracer().trace("fetching \(name)")
    return try await api().fetch("/images/\(name)")
  }
}

actor Prefetcher {
  let api = Dependency(\.api)

  func prefetch(_ paths: [String]) async throws -> [String] {
    var results: [String] = []
    for path in paths { results.append(try await api.wrappedValue.fetch(path)) }
    return results
  }
}

/// Without `nonisolated`, a Sendable class of this module is main-actor isolated; its `let`s
/// still read from anywhere.
final class MainActorSendableCache: Sendable {
  let api = Dependency(\.api)
}

nonisolated func readFromMainActorSendableCache(_ cache: MainActorSendableCache) -> String {
  cache.api().baseURL
}

// MARK: - A main-actor value

final class Haptics {
  var taps = 0
  func tap() { taps += 1 }
}

enum HapticsKey: MainActorDependencyKey {
  static var defaultValue: Haptics { Haptics() }
}

extension DependencyValues {
  var haptics: Haptics {
    get { self[HapticsKey.self] }
    set { self[HapticsKey.self] = newValue }
  }
}

final class CheckoutModel {
  @Dependency(HapticsKey.self) var haptics

  func pay() {
    haptics.tap()
  }
}

nonisolated func tapFromAnywhere() async {
  await DependencyValues.current.haptics.tap()
}

// MARK: - Setup at the entry point

enum APIBaseURLKey: DependencyInputKey {
  typealias Value = String
  static let testValue = "https://api.test.invalid"
}

nonisolated extension DependencyValues {
  var apiBaseURL: String {
    get { self[APIBaseURLKey.self] }
    set { self[APIBaseURLKey.self] = newValue }
  }
}

func applicationDidFinishLaunching() {
  prepareDependencies {
    $0.apiBaseURL = "https://api.example.com"
    $0.api = APIClient(baseURL: "https://api.example.com") { path in "live \(path)" }
  }
}

nonisolated func callbackFromAFramework() -> String {
  @Dependency(\.apiBaseURL) var baseURL
  return baseURL  // "https://api.example.com", on any thread
}
