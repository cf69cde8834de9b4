import Foundation
import Sealite
import Testing

// SQL literals that name the table and the columns of record types:
// `"SELECT \(columnsOf: Player.self) FROM \(Player.self)"`.

private struct Player: Codable, FetchableRecord, TableRecord, Equatable {
  var id: Int64
  var teamId: Int64
  var name: String
}

private struct Team: Codable, FetchableRecord, TableRecord, Equatable {
  var id: Int64
  var name: String
}

/// The player table, seen through two of its columns.
private struct PlayerName: Codable, FetchableRecord, TableRecord {
  static let databaseTableName = "player"
  static var databaseSelection: [any SQLSelectable] { [Column("id"), Column("name")] }
  var id: Int64
  var name: String
}

/// The player table without its team.
private struct TeamlessPlayer: Codable, FetchableRecord, TableRecord {
  static let databaseTableName = "player"
  static var databaseSelection: [any SQLSelectable] { [.allColumns(excluding: ["teamId"])] }
  var id: Int64
  var name: String
}

private struct PlayerAndTeam: FetchableRecord {
  var player: Player
  var team: Team

  init(row: Row) throws {
    player = try Player(row: row.scopes["player"]!)
    team = try Team(row: row.scopes["team"]!)
  }
}

private func makeDatabase() throws -> DatabaseQueue {
  let queue = try DatabaseQueue()
  try queue.write { db in
    try db.execute(
      sql: """
        CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER NOT NULL REFERENCES team(id), name TEXT NOT NULL);
        INSERT INTO team VALUES (1, 'Reds'), (2, 'Blues');
        INSERT INTO player VALUES (1, 2, 'Arthur'), (2, 1, 'Barbara');
        """)
  }
  return queue
}

@Suite("SQL interpolation of record types: columnsOf and tableOf")
struct RecordInterpolationTests {
  @Test("columnsOf: gives the record's selection, qualified with its table name or the given alias")
  func columnsOf() throws {
    let queue = try makeDatabase()
    try queue.read { db throws in
      #expect(
        try SQL("SELECT \(columnsOf: Player.self) FROM player").build(db).sql
          == #"SELECT "player".* FROM player"#)
      #expect(
        try SQL("SELECT \(columnsOf: Player.self, tableAlias: "p") FROM player p").build(db).sql
          == #"SELECT "p".* FROM player p"#)
      #expect(
        try SQL("SELECT \(columnsOf: PlayerName.self, tableAlias: "p") FROM player p").build(db).sql
          == #"SELECT "p"."id", "p"."name" FROM player p"#)
      #expect(
        try SQL("SELECT \(columnsOf: TeamlessPlayer.self) FROM player").build(db).sql
          == #"SELECT "player"."id", "player"."name" FROM player"#)
    }
  }

  @Test("columnsOf: selects two tables side by side in one literal, which records decode by scope")
  func joinedLiteral() throws {
    let queue = try makeDatabase()
    try queue.read { db in
      let request = SQLRequest<PlayerAndTeam>(
        literal: """
          SELECT \(columnsOf: Player.self, tableAlias: "p"), \(columnsOf: Team.self)
          FROM player p JOIN \(Team.self) ON team.id = p.teamId
          ORDER BY p.id
          """,
        adapter: ScopeAdapter(["player": RangeRowAdapter(0..<3), "team": RangeRowAdapter(3..<5)]))
      let pairs = try request.fetchAll(db)
      #expect(pairs.map(\.player.name) == ["Arthur", "Barbara"])
      #expect(pairs.map(\.team.name) == ["Blues", "Reds"])
    }
  }

  @Test("tableOf: gives the quoted table of a record, known by its type or at run time")
  func tableOf() throws {
    let queue = try makeDatabase()
    try queue.read { db throws in
      let team = Team(id: 1, name: "Reds")
      let anyRecord: any TableRecord = Player(id: 1, teamId: 2, name: "Arthur")
      #expect(try SQL("SELECT * FROM \(tableOf: team)").build(db).sql == #"SELECT * FROM "team""#)
      #expect(try SQL("SELECT * FROM \(tableOf: anyRecord)").build(db).sql == #"SELECT * FROM "player""#)
      let name = SQLRequest<String>(literal: "SELECT name FROM \(tableOf: team) WHERE id = \(team.id)")
      #expect(try name.fetchOne(db) == "Reds")
    }
  }
}
