import Foundation
import Sealite
import Testing

// Window functions, which the query interface does not build, through raw SQL,
// SQL literals in requests, and common table expressions. Where the linked
// SQLite has none (3.15, the legacy leg), the statement fails with the
// SQLiteFeatureError that names them instead of SQLite's syntax error.

private struct Player: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var name: String
  var score: Int
}

/// What `body` returns where the linked SQLite has window functions.
/// Elsewhere, checks that `body` throws the error that names them, and
/// returns nil.
private func withWindowFunctions<T>(_ body: () throws -> T) throws -> T? {
  guard SQLiteFeatures.linked.supports(.windowFunctions) else {
    let error = #expect(throws: SQLiteFeatureError.self) { _ = try body() }
    #expect(error?.capability == .windowFunctions)
    return nil
  }
  return try body()
}

@Suite("Window functions in raw SQL and SQL literals")
struct WindowFunctionTests {
  @Test(
    "Window functions run through raw SQL, literals and common table expressions",
    arguments: RequestProtocolStore.allCases)
  func windowFunctions(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try store.makeWriter(directory)
    try writer.write { (db: Database) throws in
      try db.execute(
        sql: """
          CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL);
          INSERT INTO player VALUES (1, 'Arthur', 10), (2, 'Barbara', 30), (3, 'Craig', 20);
          """)
    }
    try writer.read { (db: Database) throws in
      let raw = try withWindowFunctions {
        try Int.fetchAll(db, sql: "SELECT row_number() OVER (ORDER BY score DESC) FROM player ORDER BY id")
      }
      if let raw { #expect(raw == [3, 1, 2]) }

      let ranked =
        Player
        .select(literal: "name, rank() OVER (ORDER BY score DESC) AS ranking")
        .order(Column("id"))
        .asRequest(of: Row.self)
      // The statement compiles where SQLite has window functions only.
      if let sql = try withWindowFunctions({ try ranked.makePreparedRequest(db).statement.sql }) {
        #expect(
          sql == #"SELECT name, rank() OVER (ORDER BY score DESC) AS ranking FROM "player" ORDER BY "id""#)
      }
      if let rows = try withWindowFunctions({ try ranked.fetchAll(db) }) {
        #expect(rows.map { $0["ranking"] as Int } == [3, 1, 2])
      }

      // The best player per score band, from a common table expression.
      let numbered = CommonTableExpression(
        named: "numbered",
        literal: "SELECT id, row_number() OVER (ORDER BY score DESC) AS position FROM player")
      let best = Player.with(numbered)
        .joining(
          required: Player.association(to: numbered) { player, numbered in
            player[Column("id")] == numbered[Column("id")]
          }.filter(Column("position") == 1))
      if let players = try withWindowFunctions({ try best.fetchAll(db) }) {
        #expect(players.map(\.name) == ["Barbara"])
      }
    }
  }
}
