// The SwiftUI API that TinyDependencySwiftUI uses, declared so that Linux compiles the product.
//
// Declarations only: every body stops, since nothing here runs (a test that needs behaviour
// tests the product's plain-Swift logic instead). The signatures, availability and isolation
// follow the iOS 18.0 SDK (Xcode 16, Swift 6.0 compiler), files
//   SwiftUI.framework/Modules/SwiftUI.swiftmodule/arm64e-apple-ios.swiftinterface
//   SwiftUICore.framework/Modules/SwiftUICore.swiftmodule/arm64e-apple-ios.swiftinterface
// (SwiftUI re-exports SwiftUICore and DeveloperToolsSupport; one module stands in for the three).
// Checked against those files' text: their headers (the re-exports, the module flags) and the
// style of their declarations (`nonisolated` view modifiers, `@MainActor @preconcurrency`
// protocols and primitive views with `Body = Never`). The declarations below were written from
// Apple's documentation of each symbol (availability, isolation) and not yet compared line by
// line with the interfaces, which are too large to search here; do that on a Mac with
// `grep -n 'protocol PreviewModifier' …/SwiftUI.swiftinterface` and the like.
// Left out: underscored requirements with default implementations (`_makeView`,
// `_makeProperty`, `_propertyBehaviors`), `@_typeEraser(AnyView)` on `View`, and
// `@_originallyDefinedIn`, which change no call site.
//
// The module is not named `SwiftUI`: SwiftPM puts every module of a package on one search path,
// so a module of that name would make `canImport(SwiftUI)` true for every target on Linux.
// On a platform that has SwiftUI the file is empty, and no target links it there.
#if !canImport(SwiftUI)

  // MARK: - View (SwiftUICore)

  /// A type that represents part of an app's user interface.
  @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
  @MainActor @preconcurrency public protocol View {
    /// The type of view representing the body of this view.
    associatedtype Body: View
    /// The content and behavior of the view.
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
  }

  @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
  extension Never: View {
    /// A view with no body.
    public typealias Body = Never
    /// Never called.
    public var body: Never { fatalError("stand-in") }
  }

  /// A custom parameter attribute that constructs views from closures.
  @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
  @resultBuilder public struct ViewBuilder {
    /// Passes a single view written as a child view through unmodified.
    public static func buildExpression<Content>(_ content: Content) -> Content
    where Content: View { content }
    /// Builds an empty view from a block containing no statements.
    public static func buildBlock() -> EmptyView { EmptyView() }
    /// Passes a single view written as a child view through unmodified.
    public static func buildBlock<Content>(_ content: Content) -> Content where Content: View {
      content
    }
  }

  /// A view that doesn't contain any content.
  @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
  @frozen @MainActor @preconcurrency public struct EmptyView: View {
    /// Creates an empty view.
    @inlinable nonisolated public init() {}
    /// A primitive view's body.
    public typealias Body = Never
    /// Never called.
    nonisolated public var body: Never { fatalError("stand-in") }
  }

  /// A value with a modifier applied to it.
  @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
  @frozen public struct ModifiedContent<Content, Modifier> {
    /// The content that the modifier transforms into a new view or new view modifier.
    public var content: Content
    /// The view modifier.
    public var modifier: Modifier
    /// A structure that the defines the content and modifier needed to produce a new view.
    @inlinable nonisolated public init(content: Content, modifier: Modifier) {
      self.content = content
      self.modifier = modifier
    }
  }

  @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
  extension ModifiedContent: View where Content: View, Modifier: ViewModifier {
    /// A primitive view's body.
    public typealias Body = Never
    /// Never called.
    @MainActor @preconcurrency public var body: Never { fatalError("stand-in") }
  }

  /// A view that displays one or more lines of read-only text.
  @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
  @frozen public struct Text: Equatable, Sendable {
    /// Creates a text view that displays a stored string without localization.
    @_disfavoredOverload public init<S>(_ content: S) where S: StringProtocol {
      fatalError("stand-in")
    }
  }

  @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
  extension Text: View {
    /// A primitive view's body.
    public typealias Body = Never
    /// Never called.
    @MainActor @preconcurrency public var body: Never { fatalError("stand-in") }
  }

  @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
  extension View {
    /// Adds an asynchronous task to perform before this view appears.
    @inlinable nonisolated public func task(
      priority: TaskPriority = .userInitiated,
      @_inheritActorContext _ action: @escaping @isolated(any) @Sendable () async -> Void
    ) -> some View {
      modifier(_TaskModifier(priority: priority, action: action))
    }
  }

  /// The modifier `task(priority:_:)` applies.
  @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
  @frozen public struct _TaskModifier: ViewModifier {
    /// Creates the modifier.
    @inlinable nonisolated public init(
      priority: TaskPriority,
      action: @escaping @isolated(any) @Sendable () async -> Void
    ) {}
    /// Never called.
    public func body(content: Content) -> Never { fatalError("stand-in") }
  }

  // MARK: - ViewModifier (SwiftUICore)

  /// A modifier that you apply to a view or another view modifier.
  @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
  @MainActor @preconcurrency public protocol ViewModifier {
    /// The type of view representing the body.
    associatedtype Body: View
    /// Gets the current body of the caller.
    @ViewBuilder @MainActor @preconcurrency func body(content: Self.Content) -> Self.Body
    /// The content view type passed to `body()`.
    typealias Content = _ViewModifier_Content<Self>
  }

  /// The content a view modifier's body receives.
  @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
  @MainActor @preconcurrency public struct _ViewModifier_Content<Modifier>: View
  where Modifier: ViewModifier {
    /// A primitive view's body.
    public typealias Body = Never
    /// Never called.
    nonisolated public var body: Never { fatalError("stand-in") }
  }

  @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
  extension View {
    /// Applies a modifier to a view and returns a new view.
    @inlinable nonisolated public func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> {
      ModifiedContent(content: self, modifier: modifier)
    }
  }

  // MARK: - Environment (SwiftUICore)

  /// A key for accessing values in the environment.
  @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
  public protocol EnvironmentKey {
    /// The associated type representing the type of the environment key's value.
    associatedtype Value
    /// The default value for the environment key.
    static var defaultValue: Self.Value { get }
  }

  /// A collection of environment values propagated through a view hierarchy.
  @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
  public struct EnvironmentValues: CustomStringConvertible {
    /// Creates an environment values instance.
    public init() { fatalError("stand-in") }
    /// Accesses the environment value associated with a custom key.
    public subscript<K>(key: K.Type) -> K.Value where K: EnvironmentKey {
      get { fatalError("stand-in") }
      set { fatalError("stand-in") }
    }
    /// A string that represents the contents of the environment values instance.
    public var description: String { fatalError("stand-in") }
  }

  /// A property wrapper that reads a value from a view's environment.
  @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
  @frozen @propertyWrapper public struct Environment<Value>: DynamicProperty {
    /// Creates an environment property to read the specified key path.
    @inlinable nonisolated public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {
      fatalError("stand-in")
    }
    /// The current value of the environment property.
    @inlinable nonisolated public var wrappedValue: Value { fatalError("stand-in") }
  }

  @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
  extension Environment: Sendable where Value: Sendable {}

  @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
  extension View {
    /// Sets the environment value of the specified key path to the given value.
    nonisolated public func environment<V>(
      _ keyPath: WritableKeyPath<EnvironmentValues, V>,
      _ value: V
    ) -> some View {
      modifier(_EnvironmentKeyWritingModifier(keyPath: keyPath, value: value))
    }
  }

  /// A modifier that sets a value for an environment keyPath.
  @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
  @frozen @MainActor @preconcurrency
  public struct _EnvironmentKeyWritingModifier<Value>:
    ViewModifier
  {
    /// Creates the modifier.
    @inlinable nonisolated public init(
      keyPath: WritableKeyPath<EnvironmentValues, Value>,
      value: Value
    ) {}
    /// Never called.
    public func body(content: Content) -> Never { fatalError("stand-in") }
  }

  // MARK: - State and dynamic properties (SwiftUICore)

  /// An interface for a stored variable that updates an external property of a view.
  @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
  public protocol DynamicProperty {
    /// Updates the underlying value of the stored value.
    mutating func update()
  }

  @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
  extension DynamicProperty {
    /// Updates the underlying value of the stored value.
    public mutating func update() {}
  }

  /// A property wrapper type that can read and write a value managed by SwiftUI.
  @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
  @frozen @propertyWrapper public struct State<Value>: DynamicProperty {
    /// Creates a state property that stores an initial value.
    public init(wrappedValue value: Value) { fatalError("stand-in") }
    /// Creates a state property that stores an initial value.
    public init(initialValue value: Value) { fatalError("stand-in") }
    /// The underlying value referenced by the state variable.
    public var wrappedValue: Value {
      get { fatalError("stand-in") }
      nonmutating set { fatalError("stand-in") }
    }
  }

  @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
  extension State: Sendable where Value: Sendable {}

  // MARK: - Scene (SwiftUI)

  /// A part of an app's user interface with a life cycle managed by the system.
  @available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
  @MainActor @preconcurrency public protocol Scene {
    /// The type of scene that represents the body of this scene.
    associatedtype Body: Scene
    /// The content and behavior of the scene.
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
  }

  @available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
  extension Never: Scene {}

  /// A result builder for composing a collection of scenes into a single composite scene.
  @available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
  @resultBuilder public struct SceneBuilder {
    /// Builds an expression within the builder.
    public static func buildExpression<Content>(_ content: Content) -> Content
    where Content: Scene { content }
    /// Passes a single scene unmodified.
    public static func buildBlock<Content>(_ content: Content) -> Content where Content: Scene {
      content
    }
  }

  /// A scene that sets an environment value (what `environment(_:_:)` returns).
  @available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
  @MainActor @preconcurrency public struct _EnvironmentWritingScene<Content: Scene, Value>: Scene {
    /// Never called.
    public var body: Never { fatalError("stand-in") }
  }

  @available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
  extension Scene {
    /// Sets the environment value of the specified key path to the given value.
    nonisolated public func environment<V>(
      _ keyPath: WritableKeyPath<EnvironmentValues, V>,
      _ value: V
    ) -> some Scene {
      _EnvironmentWritingScene<Self, V>()
    }
  }

  // MARK: - Previews (SwiftUI, and DeveloperToolsSupport which SwiftUI re-exports)

  /// A preview of a view, as `#Preview` makes one (DeveloperToolsSupport).
  @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
  public struct Preview {
    /// The kind of preview traits that apply to a view preview.
    public enum ViewTraits {}
  }

  /// A type that customizes a preview's appearance or environment (DeveloperToolsSupport).
  @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
  public struct PreviewTrait<T> {}

  /// A type that defines an environment in which previews can appear.
  @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
  @MainActor @preconcurrency public protocol PreviewModifier {
    /// A context the preview system makes once and shares with every preview of the modifier.
    associatedtype Context = Void
    /// The type of view the modifier makes.
    associatedtype Body: View
    /// The type-erased content of a preview.
    typealias Content = PreviewModifierContent
    /// Creates the shared context, cached by the preview system.
    @MainActor @preconcurrency static func makeSharedContext() async throws -> Self.Context
    /// Modifies a preview by applying the shared context.
    @ViewBuilder @MainActor @preconcurrency func body(
      content: Self.Content,
      context: Self.Context
    ) -> Self.Body
  }

  @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
  extension PreviewModifier where Self.Context == () {
    /// Makes no context.
    @MainActor @preconcurrency public static func makeSharedContext() async throws {}
  }

  /// The type-erased content of a preview.
  @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
  @MainActor @preconcurrency public struct PreviewModifierContent: View {
    /// A primitive view's body.
    public typealias Body = Never
    /// Never called.
    nonisolated public var body: Never { fatalError("stand-in") }
  }

  @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
  extension PreviewTrait where T == Preview.ViewTraits {
    /// Applies a preview modifier to the preview.
    @MainActor @preconcurrency public static func modifier(
      _ modifier: some PreviewModifier
    ) -> PreviewTrait<T> { PreviewTrait() }
  }
#endif
