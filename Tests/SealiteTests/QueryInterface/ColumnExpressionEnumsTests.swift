import Foundation
import Sealite
import Testing

// A program's own column types (an enum of strings) stand wherever GRDB takes
// an expression: selections, orderings, identity operators, mixed lists and
// association aggregates.

private enum ReaderColumns: String, ColumnExpression {
  case name, age
}

private struct Team: TableRecord {
  static let databaseTableName = "team"
  static let players = hasMany(Player.self)
}

private struct Player: TableRecord {
  static let databaseTableName = "player"
  enum Columns {
    static let score = Column("score")
  }
}

@Suite("Column enums and expressions as GRDB takes them")
struct ColumnExpressionEnumsTests {
  @Test("An enum of columns selects, orders, and compares with IS", arguments: [false, true])
  func enumColumns(encrypted: Bool) throws {
    let dbQueue = try DatabaseQueue(configuration: encrypted ? rawKeyConfiguration() : Configuration())
    try dbQueue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE reader(name TEXT, age INTEGER);
          INSERT INTO reader VALUES ('arthur', 40), ('Barbara', NULL), ('craig', 30);
          """)
      let readers = Table("reader")
      let (sql, _) = try SQL("SELECT \(ReaderColumns.name)").build(db)
      #expect(sql == #"SELECT "name""#)
      #expect(
        try String.fetchAll(db, readers.select(ReaderColumns.name).order(ReaderColumns.age)) == [
          "Barbara", "craig", "arthur",
        ])
      // NULL IS NULL: the row whose age is NULL matches itself.
      #expect(try readers.filter(ReaderColumns.age === ReaderColumns.age).fetchCount(db) == 3)
      #expect(try readers.filter(ReaderColumns.age !== ReaderColumns.age).fetchCount(db) == 0)
      // A list of mixed values and expressions.
      let names: [any SQLExpressible] = ["ARTHUR", "barbara"]
      #expect(
        try String.fetchAll(
          db,
          readers.select(ReaderColumns.name).filter(names.contains(ReaderColumns.name.collating(.nocase)))
            .order(ReaderColumns.name))
          == ["Barbara", "arthur"])
    }
  }

  @Test("Association aggregates take a closure over the destination's columns")
  func aggregateClosures() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE team(id INTEGER PRIMARY KEY);
          CREATE TABLE player(id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id), score INTEGER);
          INSERT INTO team VALUES (1), (2);
          INSERT INTO player VALUES (1, 1, 10), (2, 1, 30), (3, 2, 5);
          """)
    }
    try dbQueue.read { db in
      let rows = try Team.annotated(
        with: Team.players.average { $0.score }.forKey("average"),
        Team.players.max { $0.score }.forKey("best"),
        Team.players.sum { $0.score }.forKey("sum")
      )
      .order(Column("id")).asRequest(of: Row.self).fetchAll(db)
      #expect(rows.map { $0["average"] as Double } == [20, 5])
      #expect(rows.map { $0["best"] as Int } == [30, 5])
      #expect(rows.map { $0["sum"] as Int } == [40, 5])
    }
  }
}
