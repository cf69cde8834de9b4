import Foundation
import Sealite
import Testing

// A deleteAll or updateAll of a request that joins another table, or groups
// its rows, writes through a subquery of the rows' keys, as GRDB does: the
// subquery selects the key column alone (the joined tables filter the rows,
// but add no column), and the key is the column that is the rowid when the
// table has one (`INTEGER PRIMARY KEY`), else the rowid.

@Suite("deleteAll and updateAll of joined and grouped requests")
struct JoinedRequestWriteTests {
  private struct Team: TableRecord {
    static let databaseTableName = "team"
    static let players = hasMany(Player.self)
  }

  private struct Player: TableRecord {
    static let databaseTableName = "player"
    static let team = belongsTo(Team.self)
  }

  private struct Tag: TableRecord {
    static let databaseTableName = "tag"
  }

  /// Runs `body` in a write of an in-memory queue where teams 1 (red) and 2
  /// (blue) have players 1 and 2 (team 1), 3 (team 2), and 4 (no team).
  private func withPlayers(_ body: (Database) throws -> Void) throws {
    try DatabaseQueue().write { db in
      try db.execute(
        sql: """
          CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
          CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id), score INTEGER);
          INSERT INTO team VALUES (1, 'red'), (2, 'blue');
          INSERT INTO player VALUES (1, 1, 10), (2, 1, 20), (3, 2, 30), (4, NULL, 40);
          """)
      try body(db)
    }
  }

  private func playerIDs(_ db: Database) throws -> [Int] {
    try Int.fetchAll(db, sql: "SELECT id FROM player ORDER BY id")
  }

  @Test("deleteAll of a request including a joined table deletes the joined rows only")
  func deleteIncludingJoin() throws {
    try withPlayers { db in
      var count = 0
      let sql = try capturedSQL(db) {
        count = try Player.including(required: Player.team.filter(Column("name") == "red")).deleteAll(db)
      }
      #expect(count == 2)
      #expect(try playerIDs(db) == [3, 4])
      #expect(
        sql.contains(
          #"DELETE FROM "player" WHERE "id" IN (SELECT "player"."id" FROM "player" "#
            + #"JOIN "team" ON ("team"."id" = "player"."teamId") AND ("team"."name" = ?))"#), "\(sql)")
    }
  }

  @Test("deleteAll of an aliased request joining a table selects the key of the alias")
  func deleteAliasedJoin() throws {
    try withPlayers { db in
      let alias = TableAlias(name: "p")
      var count = 0
      let sql = try capturedSQL(db) {
        count = try Player.aliased(alias).including(required: Player.team).deleteAll(db)
      }
      #expect(count == 3)
      #expect(try playerIDs(db) == [4])
      #expect(
        sql.contains(
          #"DELETE FROM "player" WHERE "id" IN (SELECT "p"."id" FROM "player" "p" "#
            + #"JOIN "team" ON "team"."id" = "p"."teamId")"#), "\(sql)")
    }
  }

  @Test("updateAll of a request including a joined table updates the joined rows only")
  func updateIncludingJoin() throws {
    try withPlayers { db in
      var count = 0
      let sql = try capturedSQL(db) {
        count = try Player.including(required: Player.team.filter(Column("name") == "blue"))
          .updateAll(db, Column("score").set(to: 0))
      }
      #expect(count == 1)
      #expect(try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id") == [10, 20, 0, 40])
      #expect(
        sql.contains(
          #"UPDATE "player" SET "score" = ? WHERE "id" IN (SELECT "player"."id" FROM "player" "#
            + #"JOIN "team" ON ("team"."id" = "player"."teamId") AND ("team"."name" = ?))"#), "\(sql)")
    }
  }

  @Test("updateAll of a request with a to-many join and prefetched rows updates each row once")
  func updateToManyJoin() throws {
    try withPlayers { db in
      try db.execute(sql: "INSERT INTO team VALUES (3, 'green')")
      let count = try Team.joining(required: Team.players.filter(Column("score") > 5))
        .including(all: Team.players)
        .updateAll(db, Column("name").set(to: "playing"))
      #expect(count == 2)
      #expect(
        try String.fetchAll(db, sql: "SELECT name FROM team ORDER BY id") == ["playing", "playing", "green"])
    }
  }

  @Test("deleteAll and updateAll of a request filtered on an association aggregate change its rows only")
  func associationAggregateFilter() throws {
    try withPlayers { db in
      try db.execute(sql: "INSERT INTO team VALUES (3, 'green')")
      let updated = try Team.having(Team.players.isEmpty).updateAll(db, Column("name").set(to: "empty"))
      #expect(updated == 1)
      #expect(try String.fetchAll(db, sql: "SELECT name FROM team ORDER BY id") == ["red", "blue", "empty"])
      // Before, the filter was dropped: every team was deleted.
      #expect(try Team.having(Team.players.isEmpty).deleteAll(db) == 1)
      #expect(try Int.fetchAll(db, sql: "SELECT id FROM team ORDER BY id") == [1, 2])
    }
  }

  @Test("deleteAll of a grouped request uses the rowid column's own name")
  func deleteGrouped() throws {
    try withPlayers { db in
      var count = 0
      let sql = try capturedSQL(db) { count = try Player.group(Column("teamId")).deleteAll(db) }
      #expect(count == 3)
      #expect(
        sql.contains(#"DELETE FROM "player" WHERE "id" IN (SELECT "id" FROM "player" GROUP BY "teamId")"#),
        "\(sql)")
    }
  }

  @Test("A table whose primary key is not the rowid is written by rowid")
  func rowidKey() throws {
    try DatabaseQueue().write { db in
      try db.execute(
        sql: """
          CREATE TABLE tag (name TEXT PRIMARY KEY, weight INTEGER);
          INSERT INTO tag VALUES ('a', 1), ('b', 2), ('c', 2);
          """)
      var count = 0
      let sql = try capturedSQL(db) {
        count = try Tag.group(Column("weight")).updateAll(db, Column("weight").set(to: 9))
      }
      #expect(count == 2)
      #expect(
        sql.contains(
          #"UPDATE "tag" SET "weight" = ? WHERE "rowid" IN (SELECT "rowid" FROM "tag" GROUP BY "weight")"#),
        "\(sql)")
    }
  }
}
