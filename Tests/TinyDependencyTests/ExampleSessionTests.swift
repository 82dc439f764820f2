import Testing
import TinyDependency

@testable import TinyDependencyExample

/// Issue 35, item 9: the example app's sessions; the second user sees nothing of the first.
@Suite("The example app's sessions keep each user's values to that user")
struct ExampleSessionTests {
  @Test func signingInAsAnotherUserShowsNothingOfTheFirst() async {
    let lines = await signInAndOut(["ada", "grace"], in: DependencyValues(context: .test))
    #expect(
      lines == [
        #"Signed in as ada: drafts ["Note from ada"]"#, "Signed out ada",
        #"Signed in as grace: drafts ["Note from grace"]"#, "Signed out grace",
      ]
    )
  }
}
