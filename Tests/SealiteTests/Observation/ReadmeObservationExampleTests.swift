import Foundation
import Sealite
import Testing

/// The observation examples of README.md, kept compiling and working.
@Suite("README observation examples")
struct ReadmeObservationExampleTests {
  struct Player: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    var id: Int64?
    var name: String
    var score: Int
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
  }

  @Test("The README's observations deliver values")
  func readmeExample() async throws {
    let directory = TemporaryDirectory()
    let dbPool = try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
    try await dbPool.write { db in
      try db.create(table: "player") { t in
        t.autoIncrementedPrimaryKey("id")
        t.column("name", .text).notNull()
        t.column("score", .integer).notNull().defaults(to: 0)
      }
    }
    let best = Locked<[[Player]]>([])
    let observation = ValueObservation.tracking { db in
      try Player.order(Column("score").desc).limit(10).fetchAll(db)
    }
    let cancellable = observation.start(in: dbPool, scheduling: .async(onQueue: .main)) { error in
      Issue.record(error)
    } onChange: { players in
      best.withLock { $0.append(players) }
    }
    let changes = Locked(0)
    let regionCancellable = DatabaseRegionObservation(tracking: Table("player"))
      .start(in: dbPool, onError: { Issue.record($0) }, onChange: { _ in changes.withLock { $0 += 1 } })

    var counts: [Int] = []
    for try await count in ValueObservation.tracking({ db in try Player.fetchCount(db) }).values(in: dbPool) {
      counts.append(count)
      if count == 0 {
        try await dbPool.write { db in
          var player = Player(id: nil, name: "Arthur", score: 100)
          try player.insert(db)
        }
      }
      if count == 1 { break }
    }
    #expect(counts == [0, 1])
    #expect(changes.value == 1)
    #expect(await eventually { best.value.last?.count == 1 })
    #expect(best.value.last?.map(\.name) == ["Arthur"])
    cancellable.cancel()
    regionCancellable.cancel()
  }
}
