import Testing

// @testable: tablesOpenedForReading is the authorizer's internal record of a statement.
@testable import Sealite

@Suite("Tables a statement's program reads")
struct StatementReadTablesTests {
  @Test(
    "Counting, selecting constants and index lookups name the tables they read",
    arguments: [
      ("SELECT COUNT(*) FROM player", ["player"]),
      ("SELECT 1 FROM player", ["player"]),
      ("SELECT COUNT(*) FROM player WHERE name = 'a'", ["player"]),
      ("SELECT EXISTS (SELECT 1 FROM team)", ["team"]),
      ("SELECT COUNT(*) FROM player, team", ["player", "team"]),
      ("SELECT 1", []),
    ])
  func openedTables(sql: String, expected: [String]) throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT);
          CREATE INDEX player_name ON player(name);
          CREATE TABLE team (id INTEGER PRIMARY KEY);
          """)
    }
    try dbQueue.read { db in
      let statement = try db.makeStatement(sql: sql)
      #expect(statement.tablesOpenedForReading == Set(expected))
      // And the region of the statement covers those tables, on every SQLite version.
      for table in expected {
        #expect(statement.databaseRegion.isModified(byEventsOfKind: .insert(tableName: table)))
      }
    }
  }
}
