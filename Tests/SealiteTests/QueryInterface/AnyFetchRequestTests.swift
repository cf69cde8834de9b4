import Foundation
import Sealite
import Testing

// AnyFetchRequest: requests of different kinds behind one type, each running
// as it would on its own.

private struct Player: Codable, FetchableRecord, TableRecord, Equatable {
  var id: Int64
  var name: String
  var score: Int
}

private func makeDatabase() throws -> DatabaseQueue {
  let queue = try DatabaseQueue()
  try queue.write { db in
    try db.execute(
      sql: """
        CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL);
        INSERT INTO player VALUES (1, 'Arthur', 100), (2, 'Barbara', 300), (3, 'Craig', 200);
        """)
  }
  return queue
}

/// The best players, from the query interface or from SQL: one return type.
private func bestPlayers(fromSQL: Bool) -> AnyFetchRequest<Player> {
  fromSQL
    ? AnyFetchRequest(SQLRequest<Player>(sql: "SELECT * FROM player WHERE score >= 200 ORDER BY score DESC"))
    : AnyFetchRequest(Player.filter(Column("score") >= 200).order(Column("score").desc))
}

@Suite("AnyFetchRequest: a type-erased request runs the request it wraps")
struct AnyFetchRequestTests {
  @Test(
    "Wrapped query-interface and SQL requests fetch and count as they do unwrapped", arguments: [false, true])
  func fetches(fromSQL: Bool) throws {
    let queue = try makeDatabase()
    try queue.read { db in
      let request = bestPlayers(fromSQL: fromSQL)
      #expect(try request.fetchAll(db).map(\.name) == ["Barbara", "Craig"])
      #expect(try request.fetchOne(db)?.name == "Barbara")
      #expect(try request.fetchCount(db) == 2)
      let prepared = try request.makePreparedRequest(db)
      #expect(prepared.statement.columnNames == ["id", "name", "score"])
    }
  }

  @Test("asRequest(of:) fetches the same rows as another type")
  func asRequest() throws {
    let queue = try makeDatabase()
    try queue.read { db in
      let rows = try bestPlayers(fromSQL: false).asRequest(of: Row.self).fetchAll(db)
      #expect(rows.map { $0["name"] as String? } == ["Barbara", "Craig"])
      let names = AnyFetchRequest(Player.select(Column("name")).order(Column("id"))).asRequest(
        of: String.self)
      #expect(try names.fetchAll(db) == ["Arthur", "Barbara", "Craig"])
    }
  }

  @Test("A wrapped request keeps its row adapter")
  func keepsAdapter() throws {
    let queue = try makeDatabase()
    try queue.read { db throws in
      let request = AnyFetchRequest(
        SQLRequest<Row>(
          sql: "SELECT 0 AS skipped, name FROM player ORDER BY id", adapter: SuffixRowAdapter(fromIndex: 1)))
      #expect(try request.fetchOne(db) == ["name": "Arthur"])
    }
  }
}
