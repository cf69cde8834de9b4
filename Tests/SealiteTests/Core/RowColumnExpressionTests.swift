import Foundation
import Sealite
import Testing

/// Columns named by an enum of strings, the usual GRDB idiom.
private enum PlayerColumns: String, ColumnExpression {
  case name, score, bonus
}

@Suite("Rows read by column expression")
struct RowColumnExpressionTests {
  @Test(
    "A row reads a column named by a Column or an enum of strings, as by its name", arguments: [false, true])
  func subscripts(encrypted: Bool) throws {
    let dbQueue = try DatabaseQueue(configuration: encrypted ? rawKeyConfiguration() : Configuration())
    try dbQueue.read { db in
      let row = try #require(
        try Row.fetchOne(db, sql: "SELECT 'Arthur' AS name, 1000 AS score, NULL AS bonus"))
      let name: String = row[Column("name")]
      let score: Int = row[PlayerColumns.score]
      let bonus: Int? = row[PlayerColumns.bonus]
      #expect(name == "Arthur")
      #expect(score == 1000)
      #expect(bonus == nil)
      #expect(row[Column("score")] as? Int64 == 1000)
      #expect((row[PlayerColumns.bonus] as (any DatabaseValueConvertible)?) == nil)
      // Names compare without regard to ASCII case.
      #expect(row[Column("SCORE")] as Int == 1000)
      #expect(try row.decode(Int.self, forColumn: PlayerColumns.score) == 1000)
      #expect(try row.decode(String.self, forColumn: Column("name")) == "Arthur")
      #expect(try row.decode(forColumn: PlayerColumns.bonus) as Int? == nil)
      // A missing column is an error for a non-optional value, nil for an optional one.
      #expect(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: Column("missing")) }
      #expect(try row.decode(Int?.self, forColumn: Column("missing")) == nil)
      // A value that does not convert is an error.
      #expect(throws: RowDecodingError.self) { try row.decode(UUID.self, forColumn: PlayerColumns.score) }
    }
  }

  @Test("A cursor's live row reads columns by expression too")
  func liveRows() throws {
    let dbQueue = try DatabaseQueue()
    let scores = try dbQueue.read { db -> [Int] in
      var scores: [Int] = []
      let rows = try Row.fetchCursor(db, sql: "SELECT 1 AS score UNION ALL SELECT 2 ORDER BY 1")
      while let row = try rows.next() { scores.append(row[PlayerColumns.score]) }
      return scores
    }
    #expect(scores == [1, 2])
  }

  @Test("An enum of strings names its columns in the query interface")
  func enumColumnsInRequests() throws {
    let dbQueue = try DatabaseQueue()
    let names = try dbQueue.write { db -> [String] in
      try db.execute(sql: "CREATE TABLE player(name TEXT, score INTEGER, bonus INTEGER)")
      try db.execute(sql: "INSERT INTO player VALUES ('Arthur', 10, NULL), ('Barbara', 20, 1)")
      return try String.fetchAll(
        db, Table("player").select(PlayerColumns.name).filter(PlayerColumns.score > 15))
    }
    #expect(PlayerColumns.score.name == "score")
    #expect(names == ["Barbara"])
  }
}
