import Foundation
import Sealite
import Testing

/// GRDB's idioms for observation compile and work unchanged.
@Suite("GRDB-style observation code")
struct GRDBStyleObservationTests {
  struct Player: Codable, FetchableRecord, PersistableRecord, Equatable, Sendable {
    var id: Int64
    var name: String
  }

  @Test("Method references track values; cancellables can be stored in a set")
  func methodReferences() async throws {
    let dbQueue = try DatabaseQueue()
    try await dbQueue.write { db in
      try db.create(table: "player") { t in
        t.primaryKey("id", .integer)
        t.column("name", .text)
      }
    }
    var cancellables = Set<AnyDatabaseCancellable>()
    let players = Locked<[[Player]]>([])
    let counts = Locked<[Int]>([])
    ValueObservation.tracking(Player.fetchAll)
      .removeDuplicates()
      .start(in: dbQueue, scheduling: anyImmediate, onError: { Issue.record($0) }) { value in
        players.withLock { $0.append(value) }
      }
      .store(in: &cancellables)
    ValueObservation.tracking(Table("player").fetchCount)
      .start(
        in: dbQueue, scheduling: .async(onQueue: .main), onError: { Issue.record($0) },
        onChange: { value in counts.withLock { $0.append(value) } }
      )
      .store(in: &cancellables)
    #expect(players.value == [[]])
    try await dbQueue.write { db in try Player(id: 1, name: "Arthur").insert(db) }
    #expect(await eventually { players.value.count == 2 && counts.value.last == 1 })
    #expect(players.value.last == [Player(id: 1, name: "Arthur")])
    #expect(cancellables.count == 2)
    // Releasing the cancellables stops the observations at once: the commit
    // below schedules no fetch, so no value can arrive later.
    cancellables.removeAll()
    try await dbQueue.write { db in try Player(id: 2, name: "Barbara").insert(db) }
    #expect(players.value.count == 2)
  }
}
