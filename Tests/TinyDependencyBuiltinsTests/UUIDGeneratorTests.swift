import Foundation
import Testing
import TinyDependency
import TinyDependencyTesting

@testable import TinyDependencyBuiltins

/// Makes records with IDs from the `uuid` dependency.
struct RecordMaker {
  @Dependency(\.uuid) var uuid

  func make() -> UUID { uuid() }
}

@Suite("UUID generator", .dependency(\.uuid, .incrementing))
struct UUIDGeneratorTests {
  // MARK: - Incrementing, fresh per test case

  /// One `.incrementing` value from the suite trait, shared by every case, run in parallel:
  /// each case must count from UUID(0) in its own container.
  @Test(arguments: 0..<32)
  func incrementingStartsAtZeroInEveryTestCase(argument: Int) async {
    await Task.yield()
    let maker = RecordMaker()
    #expect(maker.make() == UUID(0))
    #expect(maker.make() == UUID(1))
    #expect(maker.make() == UUID(2))
  }

  @Test(arguments: 0..<8)
  func incrementingCountsAcrossTasksOfOneTest(argument: Int) async {
    let ids = await withTaskGroup(of: UUID.self) { group in
      for _ in 0..<10 { group.addTask { RecordMaker().make() } }
      return await group.reduce(into: Set<UUID>()) { $0.insert($1) }
    }
    #expect(ids == Set((0..<10).map { UUID($0) }))
  }

  @Test(.dependencies { $0.uuid = .incrementing })
  func aTestLevelIncrementingGeneratorAlsoStartsAtZero() {
    @Dependency(\.uuid) var uuid
    #expect(uuid() == UUID(0))
    #expect(uuid() == UUID(1))
  }

  @Test func aNestedScopeSharesTheTestsCount() {
    @Dependency(\.uuid) var uuid
    #expect(uuid() == UUID(0))
    withDependencies {
      $0.date = .constant(Date(timeIntervalSince1970: 0))
    } operation: {
      #expect(RecordMaker().make() == UUID(1))
    }
    #expect(uuid() == UUID(2))
  }

  // MARK: - Constant and UUID(Int)

  @Test(.dependency(\.uuid, .constant(UUID(7))))
  func constantAlwaysReturnsItsUUID() {
    let maker = RecordMaker()
    #expect(maker.make() == UUID(7))
    #expect(maker.make() == UUID(7))
  }

  @Test func intInitializerSpellsTheNumberInTheLastDigits() {
    #expect(UUID(0).uuidString == "00000000-0000-0000-0000-000000000000")
    #expect(UUID(1).uuidString == "00000000-0000-0000-0000-000000000001")
    #expect(UUID(255).uuidString == "00000000-0000-0000-0000-0000000000FF")
    #expect(UUID((1 << 48) - 1).uuidString == "00000000-0000-0000-0000-FFFFFFFFFFFF")
  }

  /// `UUID(Int)`'s arithmetic in a 32-bit integer type, as `Int` is on watchOS (arm64_32), where
  /// the placeholder and `.incrementing` make `UUID(0)`, `UUID(1)`, …: a bound computed in the
  /// number's own type (`1 << 48` is 0 in 32 bits) stops on every number.
  @Test(arguments: [Int32(0), 1, 0xFF, .max])
  func numbersOfA32BitIntegerMakeTheSameUUIDs(number: Int32) {
    #expect(UUID(number: number) == UUID(Int(number)))
  }

  @Test func theLargestNumberFitsInAnyIntegerType() {
    let largest = UUID(number: UInt64(1 << 48) - 1)
    #expect(largest.uuidString == "00000000-0000-0000-0000-FFFFFFFFFFFF")
    #expect(UUID(number: Int64(1 << 48) - 1) == largest)
  }

  @Test func liveValueMakesDistinctRandomUUIDs() {
    let live = DependencyValues(context: .default)
    #expect(live.uuid() != live.uuid())
  }
}
