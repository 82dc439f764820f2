// Compiled copies of the code blocks in Scoping-and-capturing-dependencies.md. DocCArticlesTests
// checks that every ```swift block of the catalogs appears in a DocCExamples+ file line for line;
// edit both together.

import TinyDependency

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
