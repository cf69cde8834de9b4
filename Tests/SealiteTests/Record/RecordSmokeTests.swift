import Foundation
import Testing

@testable import Sealite

private struct Player: Codable, FetchableRecord, MutablePersistableRecord, Identifiable, Equatable {
  var id: Int64?
  var name: String
  var score: Int
  var tags: [String] = []
  mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

@Suite("Record smoke")
struct RecordSmokeTests {
  @Test("insert, fetch, update, upsert, delete")
  func roundTrip() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(
        sql:
          "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, score INTEGER, tags TEXT)")
      var arthur = Player(id: nil, name: "Arthur", score: 10, tags: ["a"])
      try arthur.insert(db)
      #expect(arthur.id == 1)
      var barbara = Player(id: nil, name: "Barbara", score: 20)
      let fetched = try barbara.insertAndFetch(db)
      #expect(fetched.id == 2)
      #expect(try Player.fetchCount(db) == 2)
      #expect(try Player.find(db, id: 1) == arthur)
      #expect(try Player.filter(Column("score") > 15).fetchAll(db).map(\.name) == ["Barbara"])
      #expect(try Player.order(Column("score").desc).fetchAll(db).map(\.name) == ["Barbara", "Arthur"])
      #expect(try Player.all().reversed().fetchAll(db).map(\.name) == ["Barbara", "Arthur"])
      arthur.score = 11
      try arthur.update(db)
      #expect(try Player.fetchOne(db, id: 1)?.score == 11)
      #expect(try arthur.updateChanges(db) { $0.score = 12 })
      #expect(try !arthur.updateChanges(db) { $0.score = 12 })
      var other = Player(id: nil, name: "Arthur", score: 99)
      let upserted = try other.upsertAndFetch(db)
      #expect(upserted.id == 1)
      #expect(upserted.score == 99)
      var keep = Player(id: nil, name: "Arthur", score: 5)
      let kept = try keep.upsertAndFetch(db, onConflict: ["name"], updating: .noColumnUnlessSpecified)
      #expect(kept.score == 99)
      let named = try Player.filter(Column("name").like("B%")).select(Column("name"), as: String.self)
        .fetchAll(db)
      #expect(named == ["Barbara"])
      #expect(try Player.select(max(Column("score")), as: Int.self).fetchOne(db) == 99)
      #expect(try Player.deleteOne(db, id: 2))
      #expect(try Player.fetchCount(db) == 1)
      do {
        _ = try Player.find(db, id: 42)
        Issue.record("expected recordNotFound")
      } catch let error as RecordError {
        #expect("\(error)".contains("player"))
      }
      let name = "x'); DROP TABLE player; --"
      #expect(try Row.fetchAll(db, SQLRequest<Row>("SELECT * FROM player WHERE name = \(name)")).isEmpty)
      #expect(try Player.fetchCount(db) == 1)
    }
  }
}
