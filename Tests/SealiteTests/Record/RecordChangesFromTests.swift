import Foundation
import Sealite
import Testing

// databaseChanges(from:), databaseEquals and updateChanges(_:from:) compare
// two records as GRDB does: a column the other record does not write is NULL
// there, and values compare as DatabaseValue's == (the integer 1 equals the
// real 1.0).

@Suite("Changes between two records, compared as GRDB compares them")
struct RecordChangesFromTests {
  private struct Player: Codable, MutablePersistableRecord {
    static let databaseTableName = "player"
    var id: Int64
    var name: String?
    var score: Int?
    var bonus: Double?
  }

  /// The same table, seen through fewer columns (in another case).
  private struct NarrowPlayer: Codable, MutablePersistableRecord {
    static let databaseTableName = "player"
    var ID: Int64
    var NAME: String?
  }

  /// A class that is no `Record`: modified in place, through the same reference.
  private final class ClassPlayer: Codable, PersistableRecord {
    static let databaseTableName = "player"
    var id: Int64
    var name: String?
    init(id: Int64, name: String?) {
      self.id = id
      self.name = name
    }
  }

  @Test("updateChanges(_:modify:) of a class compares it with what it was before modify, as GRDB does")
  func classModifiedInPlace() throws {
    try DatabaseQueue().write { db in
      try db.execute(
        sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER, bonus REAL)")
      var player = ClassPlayer(id: 1, name: "Arthur")
      try player.insert(db)
      var updated = false
      var sql = try capturedSQL(db) { updated = try player.updateChanges(db) { $0.name = nil } }
      #expect(updated)
      #expect(sql == [#"UPDATE "player" SET "name"=? WHERE "id"=?"#])
      #expect(try String.fetchOne(db, sql: "SELECT IFNULL(name, 'null') FROM player") == "null")
      sql = try capturedSQL(db) { updated = try player.updateChanges(db) { $0.name = nil } }
      #expect(!updated)
      #expect(sql.isEmpty)
    }
  }

  @Test("a column the other record lacks counts as NULL there")
  func narrowerRecord() throws {
    let old = NarrowPlayer(ID: 1, NAME: "Arthur")
    let new = Player(id: 1, name: "Arthur", score: 41, bonus: nil)
    #expect(try new.databaseChanges(from: old) == ["score": .null])
    try DatabaseQueue().write { db in
      try db.execute(
        sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER, bonus REAL)")
      var inserted = old
      try inserted.insert(db)
      var updated = false
      let sql = try capturedSQL(db) { updated = try new.updateChanges(db, from: old) }
      #expect(updated)
      #expect(sql.last == #"UPDATE "player" SET "score"=? WHERE "id"=?"#)
      #expect(try Int.fetchOne(db, sql: "SELECT score FROM player") == 41)
    }
  }

  @Test("an integer and an equal real are no change; a different value is")
  func numericEquality() throws {
    struct RealScore: Codable, MutablePersistableRecord {
      static let databaseTableName = "player"
      var id: Int64
      var score: Double
    }
    let player = Player(id: 1, name: nil, score: 1, bonus: nil)
    #expect(try player.databaseChanges(from: RealScore(id: 1, score: 1.0)).isEmpty)
    #expect(try player.databaseChanges(from: RealScore(id: 1, score: 1.5)) == ["score": 1.5.databaseValue])
    var copy = player
    #expect(player.databaseEquals(copy))
    copy.score = 2
    #expect(!player.databaseEquals(copy))
    #expect(try copy.databaseChanges(from: player) == ["score": 1.databaseValue])
    // A NaN (which SQLite stores as NULL) is no change from a NaN.
    let nan = Player(id: 1, name: nil, score: nil, bonus: .nan)
    #expect(nan.databaseEquals(nan))
  }
}
