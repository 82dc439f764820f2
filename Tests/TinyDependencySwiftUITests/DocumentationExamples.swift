import Observation
import Testing
import TinyDependency
import TinyDependencySwiftUI

// Compiled copies of the code blocks of "Using dependencies in SwiftUI"
// (Sources/TinyDependencySwiftUI/TinyDependencySwiftUI.docc) and of Examples.md's SwiftUI
// section; DocumentationTests checks them line for line. On Linux they compile against the
// stand-in module, which proves the signatures, not what SwiftUI does at run time.
#if canImport(SwiftUI)
  import SwiftUI
#else
  import SwiftUIStandIn
#endif

// MARK: - A dependency, a model and a view

struct QuoteClient: Sendable {
  var quote: @Sendable () async throws -> String
}

extension QuoteClient: DependencyKey {
  static let defaultValue = QuoteClient { "Simplicity is prerequisite for reliability." }
  static let testValue = QuoteClient { "a test quote" }
  static let previewValue = QuoteClient { "a preview quote" }
}

extension DependencyValues {
  var quotes: QuoteClient {
    get { self[QuoteClient.self] }
    set { self[QuoteClient.self] = newValue }
  }
}

@MainActor
@Observable
final class QuoteModel {
  @ObservationIgnored @Dependency(\.quotes) var quotes
  var quote = ""

  func refresh() async {
    quote = (try? await quotes.quote()) ?? "no quote today"
  }
}

struct QuoteView: View {
  @State var model: QuoteModel

  var body: some View {
    Text(model.quote)
      .task { await model.refresh() }
  }
}

// MARK: - Overriding for part of the hierarchy

struct QuoteScreen: View {
  var body: some View {
    DependenciesReader { _ in
      QuoteView(model: QuoteModel())
    }
  }
}

struct RootView: View {
  var body: some View {
    QuoteScreen()
      .dependencies {
        $0.quotes = QuoteClient { "Make it work, make it right, make it fast." }
      }
  }
}

struct QuietRootView: View {
  var body: some View {
    QuoteScreen()
      .dependency(\.quotes, QuoteClient { "Silence." })
  }
}

// MARK: - Reading the container in a view

struct QuoteBanner: View {
  @Dependency(\.quotes) private var quotes
  @State private var quote = ""

  var body: some View {
    Text(quote)
      .task { quote = (try? await quotes.quote()) ?? "" }
  }
}

struct QuoteSource: View {
  @Environment(\.dependencies) private var dependencies

  var body: some View {
    Text(dependencies.context == .preview ? "preview" : "live")
  }
}

// MARK: - Previews

@available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
@MainActor
func quotePreviewTrait() -> PreviewTrait<Preview.ViewTraits> {
  .dependencies { $0.quotes = QuoteClient { "a quote for this preview" } }
}

@MainActor
func quotePreviewOnOlderSystems() -> some View {
  QuoteScreen()
    .previewDependencies {
      $0.quotes = QuoteClient { "a quote for this preview" }
    }
}

// MARK: - A test of the model

@MainActor
@Suite struct QuoteModelTests {
  @Test func refreshShowsTheQuote() async {
    let model = withDependencies {
      $0.quotes = QuoteClient { "tested" }
    } operation: {
      QuoteModel()
    }
    await model.refresh()
    #expect(model.quote == "tested")
  }

  @Test func aFailingClientShowsThatThereIsNoQuote() async {
    struct Offline: Error {}
    let model = withDependencies {
      $0.quotes = QuoteClient { throw Offline() }
    } operation: {
      QuoteModel()
    }
    await model.refresh()
    #expect(model.quote == "no quote today")
  }
}
