import Foundation
import Sealite
import Testing

// GRDB-documented APIs that Sealite lacks or spells differently. Each test is
// written against GRDB's spelling; this file does not compile until they exist.

private struct Player: Codable, FetchableRecord, MutablePersistableRecord, Equatable, Identifiable {
  var id: Int64
  var name: String
  var score: Int?
  enum CodingKeys: String, CodingKey { case id, name, score }
}

private func makeDatabase() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { db in
    try db.execute(
      sql: """
        CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER);
        INSERT INTO player VALUES (1, 'Arthur', 100), (2, 'Barbara', 200);
        """)
  }
  return dbQueue
}

@Suite("Query interface: interpolations, Table keys, literal requests")
struct QueryInterfaceExtrasTests {
  @Test("\\(Player.self) in an SQL literal is the record's quoted table name")
  func tableRecordInterpolation() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      let literal: SQL = "SELECT * FROM \(Player.self) WHERE id = \(1)"
      #expect(try literal.build(db).sql == #"SELECT * FROM "player" WHERE id = ?"#)
      let request: SQLRequest<Player> = "SELECT * FROM \(Player.self) ORDER BY id"
      #expect(try request.fetchAll(db).map(\.id) == [1, 2])
    }
  }

  @Test("\\(CodingKeys.name) in an SQL literal is a quoted column")
  func codingKeyInterpolation() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      let request: SQLRequest<String> = "SELECT \(Player.CodingKeys.name) FROM player WHERE id = \(2)"
      #expect(try request.fetchOne(db) == "Barbara")
    }
  }

  @Test("An ordering and a request interpolate into an SQL literal")
  func orderingAndSubqueryInterpolation() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      let ordered: SQLRequest<String> = "SELECT name FROM player ORDER BY \(Column("score").desc)"
      #expect(try ordered.fetchAll(db) == ["Barbara", "Arthur"])
      let maximum: SQLRequest<Int> = "SELECT MAX(score) FROM player"
      let leaders: SQLRequest<Player> = "SELECT * FROM player WHERE score = (\(maximum))"
      #expect(try leaders.fetchAll(db).map(\.id) == [2])
      let queryInterface: SQLRequest<Player> =
        "SELECT * FROM player WHERE score = (\(Player.select(max(Column("score")))))"
      #expect(try queryInterface.fetchAll(db).map(\.id) == [2])
    }
  }

  @Test("Column(…).set(to: nil) assigns NULL")
  func setToNil() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      #expect(try Player.filter(key: 1).updateAll(db, Column("score").set(to: nil)) == 1)
      #expect(try Player.fetchOne(db, key: 1)?.score == nil)
    }
  }

  @Test("Table offers the key methods and fetch methods of record types")
  func tableKeyMethods() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      let players = Table("player")
      #expect(try players.filter(key: 1).fetchOne(db)?["name"] == "Arthur")
      #expect(try players.filter(keys: [1, 2]).fetchCount(db) == 2)
      #expect(try players.fetchOne(db, key: 2)?["name"] == "Barbara")
      #expect(try players.fetchAll(db).count == 2)
      #expect(try players.exists(db, key: 1))
      let typed = Table<Player>("player")
      #expect(try typed.fetchAll(db).map(\.id) == [1, 2])
      #expect(try typed.filter(id: 2).fetchOne(db)?.name == "Barbara")
      #expect(try players.deleteOne(db, key: 1))
      #expect(try players.fetchCount(db) == 1)
    }
  }

  @Test("Record types offer select(literal:as:), order(literal:) and select(literal:)")
  func staticLiteralMethods() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      #expect(try Player.select(literal: "MAX(\(Column("score")))", as: Int.self).fetchOne(db) == 200)
      #expect(try Player.order(literal: "score DESC").fetchAll(db).map(\.id) == [2, 1])
    }
  }
}
