import Foundation
import Sealite
import Testing

// A literal selection of an origin with included associations: the columns it
// adds are counted by SQLite's lexical rules, so that the included rows are
// read from the right columns.

private struct Team: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var title: String
}

private struct Player: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var teamId: Int64
  var name: String
  static let team = belongsTo(Team.self)
}

private struct PlayerLabel: Decodable, FetchableRecord, Equatable {
  var label: String
  var note: String
  var team: Team
}

@Suite("Literal selections with included associations")
struct LiteralSelectionWidthTests {
  private func makeDatabase() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE team (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
          CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER NOT NULL REFERENCES team(id), name TEXT);
          INSERT INTO team VALUES (1, 'Reds');
          INSERT INTO player VALUES (1, 1, 'Arthur');
          """)
    }
    return dbQueue
  }

  @Test(
    "Commas inside comments, strings and parentheses add no column",
    arguments: [
      "name AS label, /* a, b, */ 'x, y' AS note",
      "name AS label, -- a, b\n 'x, y' AS note",
      "coalesce(name, 'a, b') AS label, 'x, y' AS note",
    ])
  func commasOutsideTheList(selection: String) throws {
    let rows = try makeDatabase().read { db in
      try Player.select(sql: selection).including(required: Player.team)
        .asRequest(of: PlayerLabel.self).fetchAll(db)
    }
    #expect(rows.count == 1)
    #expect(rows.first?.label == "Arthur")
    #expect(rows.first?.note == "x, y")
    #expect(rows.first?.team == Team(id: 1, title: "Reds"))
  }
}
