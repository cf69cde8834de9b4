import Foundation
import Sealite
import Testing

private struct Player: TableRecord {
  static let databaseTableName = "player"
}

private enum PlayerKeys: String, CodingKey, ColumnExpression {
  case name, score
}

/// Casts any expression, as a GRDB program extends the query interface.
private func myCast<T: SQLExpressible>(_ value: T, as type: Database.ColumnType) -> SQLExpression {
  SQL("CAST(\(value) AS \(sql: type.rawValue))").sqlExpression
}

/// The SQL and arguments of a literal, built in `db`.
private func built(_ db: Database, _ literal: SQL) throws -> (String, StatementArguments) {
  try literal.build(db)
}

@Suite("SQL interpolation of query interface values")
struct InterpolationOverloadsTests {
  @Test("Generic expressions, selections, orderings, lists, tables and collations interpolate as in GRDB")
  func overloads() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE player(name TEXT, score INTEGER)")
      try db.execute(sql: "INSERT INTO player VALUES ('Arthur', 10), ('Barbara', 20)")

      // A generic SQLExpressible: a value is bound, a column quoted.
      #expect(try built(db, "\(myCast(Column("score"), as: .text))").0 == #"CAST("score" AS TEXT)"#)
      let (valueSQL, valueArguments) = try built(db, "\(myCast(12, as: .text))")
      #expect(valueSQL == "CAST(? AS TEXT)")
      #expect(valueArguments == [12])
      #expect(
        try String.fetchOne(db, Player.select(myCast(Column("score"), as: .text)).order(Column("score")))
          == "10")

      // Selections and orderings.
      #expect(try built(db, "SELECT \(AllColumns()) FROM \(Player.self)").0 == #"SELECT * FROM "player""#)
      #expect(try built(db, "SELECT \(Column("score").forKey("points"))").0 == #"SELECT "score" AS "points""#)
      #expect(try built(db, "ORDER BY \(Column("score").desc)").0 == #"ORDER BY "score" DESC"#)
      let term: any SQLOrderingTerm = Column("name")
      #expect(try built(db, "ORDER BY \(term)").0 == #"ORDER BY "name""#)
      let noSelection: (any SQLSelectable)? = nil
      #expect(try built(db, "SELECT \(noSelection)").0 == "SELECT NULL")

      // Coding keys that are columns too, and keys known at run time.
      #expect(try built(db, "SELECT \(PlayerKeys.name)").0 == #"SELECT "name""#)
      let key: any CodingKey = PlayerKeys.score
      #expect(try built(db, "SELECT \(key)").0 == #"SELECT "score""#)

      // Lists of expressions and of values, and the empty list, spelled as
      // GRDB spells them: no space after the commas.
      #expect(try built(db, "\([Column("a"), Column("b")])").0 == #"("a","b")"#)
      let anyList: [any SQLExpressible] = [Column("a"), 1]
      #expect(try built(db, "\(anyList)").0 == #"("a",?)"#)
      let ids: [Int64] = [1, 2, 3]
      let (idsSQL, idsArguments) = try built(db, "SELECT * FROM player WHERE rowid IN \(ids)")
      #expect(idsSQL == "SELECT * FROM player WHERE rowid IN (?,?,?)")
      #expect(idsArguments == [1, 2, 3])
      let noIDs: [Int64] = []
      #expect(try built(db, "WHERE rowid NOT IN \(noIDs)").0 == "WHERE rowid NOT IN (SELECT NULL WHERE NULL)")
      #expect(
        try SQLRequest<Int>(literal: "SELECT COUNT(*) FROM player WHERE rowid NOT IN \(noIDs)").fetchOne(db)
          == 2)
      let noColumns: [Column] = []
      #expect(
        try built(db, "SELECT 1 WHERE 1 IN \(noColumns)").0 == "SELECT 1 WHERE 1 IN (SELECT NULL WHERE NULL)")
      #expect(
        try SQLRequest<Int>(literal: "SELECT COUNT(*) FROM player WHERE score IN \(noColumns)").fetchOne(db)
          == 0)

      // Tables, record types known at run time, substrings and collations.
      #expect(try built(db, "SELECT * FROM \(Table("player"))").0 == #"SELECT * FROM "player""#)
      let type: any TableRecord.Type = Player.self
      #expect(try built(db, "SELECT * FROM \(type)").0 == #"SELECT * FROM "player""#)
      let prefix = "Arthur and friends".prefix(6)
      #expect(
        try SQLRequest<String>(literal: "SELECT name FROM player WHERE name = \(prefix)").fetchOne(db)
          == "Arthur")
      #expect(
        try SQLRequest<String>(
          literal: "SELECT name FROM player ORDER BY name COLLATE \(Database.CollationName.nocase) DESC"
        ).fetchAll(db)
          == ["Barbara", "Arthur"])

      // A database value is an expression: bound as an argument.
      let (dbValueSQL, dbValueArguments) = try built(db, "SELECT \(DatabaseValue.null), \("x".databaseValue)")
      #expect(dbValueSQL == "SELECT ?, ?")
      #expect(dbValueArguments == [nil, "x"])
    }
  }
}
