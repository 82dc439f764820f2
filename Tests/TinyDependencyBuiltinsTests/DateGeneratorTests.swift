import Foundation
import Testing
import TinyDependency
import TinyDependencyBuiltins
import TinyDependencyTesting

/// Stamps notes with the `date` dependency, read both ways users write it.
struct Stamper {
  @Dependency(\.date.now) var now
  @Dependency(\.date) var date

  func stamps() -> (Date, Date) { (now, date()) }
}

let epoch = Date(timeIntervalSince1970: 1_000_000)

@Suite("Date generator")
struct DateGeneratorTests {
  @Test(.dependency(\.date, .constant(epoch)))
  func constantDateIsReturnedByNowAndByCalling() {
    let (now, called) = Stamper().stamps()
    #expect(now == epoch)
    #expect(called == epoch)
  }

  @Test(.dependency(\.date.now, epoch))
  func settingNowThroughAKeyPathTraitFixesTheDate() {
    #expect(Stamper().stamps().0 == epoch)
  }

  @Test(.dependencies)
  func settingNowInWithDependenciesFixesTheDate() {
    let later = epoch.addingTimeInterval(60)
    withDependencies {
      $0.date.now = later
    } operation: {
      let (now, called) = Stamper().stamps()
      #expect(now == later)
      #expect(called == later)
    }
  }

  @Test func liveValueReadsTheSystemClock() {
    let live = DependencyValues(context: .default)
    let before = Date()
    let read = live.date.now
    #expect(read >= before && read <= Date())
  }
}
