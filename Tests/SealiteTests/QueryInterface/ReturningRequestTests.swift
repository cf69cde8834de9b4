import Foundation
import Sealite
import Testing

// deleteAndFetch… and updateAndFetch… on requests: one statement that changes
// rows and returns them (RETURNING, SQLite 3.35). On the legacy leg (SQLite
// 3.15) each throws the SQLiteFeatureError that names the capability, and
// changes nothing.

private struct Player: Codable, FetchableRecord, PersistableRecord, Identifiable, Hashable {
  var id: Int64
  var name: String
  var score: Int

  enum Columns {
    static let id = Column(CodingKeys.id)
    static let name = Column(CodingKeys.name)
    static let score = Column(CodingKeys.score)
  }
}

/// The player table seen without its score column.
private struct PlayerName: Codable, FetchableRecord, TableRecord, Equatable {
  static let databaseTableName = "player"
  static var databaseSelection: [any SQLSelectable] { [.allColumns(excluding: ["score"])] }
  var id: Int64
  var name: String
}

/// The player table, with a policy that ignores conflicting updates.
private struct TolerantPlayer: Codable, FetchableRecord, PersistableRecord, Equatable {
  static let databaseTableName = "player"
  static let persistenceConflictPolicy = PersistenceConflictPolicy(update: .ignore)
  var id: Int64
  var name: String
  var score: Int
}

private func makePlayers(_ store: RequestProtocolStore, _ directory: TemporaryDirectory) throws
  -> any DatabaseWriter
{
  let writer = try store.makeWriter(directory)
  try writer.write { db in
    try db.execute(
      sql: """
        CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, score INTEGER NOT NULL);
        INSERT INTO player VALUES (1, 'Arthur', 10), (2, 'Barbara', 20), (3, 'Craig', 30), (4, 'Diane', 40);
        """)
  }
  return writer
}

private func scores(_ db: Database) throws -> [Int] {
  try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id")
}

/// What `body` returns where the linked SQLite has RETURNING. Elsewhere,
/// checks that `body` throws the error that names the capability, and
/// returns nil.
private func withReturning<T>(_ body: () throws -> T) throws -> T? {
  guard SQLiteFeatures.linked.supports(.returning) else {
    let error = #expect(throws: SQLiteFeatureError.self) { _ = try body() }
    #expect(error?.capability == .returning)
    return nil
  }
  return try body()
}

@Suite("deleteAndFetch and updateAndFetch on requests: changed rows returned by the same statement")
struct ReturningRequestTests {
  @Test(
    "deleteAndFetchAll deletes the selected rows and returns them as they were",
    arguments: RequestProtocolStore.allCases)
  func deleteAndFetchAll(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makePlayers(store, directory)
    try writer.write { db in
      guard
        let deleted = try withReturning({ try Player.filter(Column("score") >= 30).deleteAndFetchAll(db) })
      else {
        #expect(try Player.fetchCount(db) == 4)
        return
      }
      #expect(Set(deleted.map(\.name)) == ["Craig", "Diane"])
      #expect(deleted.first { $0.id == 4 }?.score == 40)
      #expect(try Player.fetchAll(db).map(\.id) == [1, 2])
    }
  }

  @Test("deleteAndFetchSet, Ids, Cursor and Statement return what they deleted")
  func deleteForms() throws {
    let directory = TemporaryDirectory()
    let writer = try makePlayers(.queue, directory)
    try writer.write { db in
      guard let set = try withReturning({ try Player.filter(key: 1).deleteAndFetchSet(db) }) else { return }
      #expect(set == [Player(id: 1, name: "Arthur", score: 10)])
      #expect(try Player.filter(key: 2).deleteAndFetchIds(db) == [2])
      let cursor = try Player.filter(key: 3).deleteAndFetchCursor(db)
      #expect(try cursor.next()?.name == "Craig")
      #expect(try cursor.next() == nil)
      let statement = try Player.all().deleteAndFetchStatement(db) { [$0.name, $0.score * 2] }
      let rows = try Row.fetchAll(statement)
      #expect(rows.count == 1)
      #expect(rows.first?["name"] == "Diane")
      #expect(rows.first?[1] == 80)
      #expect(try Player.fetchCount(db) == 0)
    }
  }

  @Test(
    "A limited, ordered request deletes and returns the rows it selects; allColumns(excluding:) is honoured")
  func limitedDelete() throws {
    let directory = TemporaryDirectory()
    let writer = try makePlayers(.queue, directory)
    try writer.write { db in
      let request = PlayerName.order(Column("score").desc).limit(2)
      guard let deleted = try withReturning({ try request.deleteAndFetchAll(db) }) else { return }
      #expect(Set(deleted.map(\.name)) == ["Craig", "Diane"])
      let statement = try PlayerName.all().deleteAndFetchStatement(
        db, selection: PlayerName.databaseSelection)
      #expect(statement.columnNames == ["id", "name"])
      #expect(try Row.fetchAll(statement).count == 2)
    }
  }

  @Test(
    "updateAndFetchAll updates the selected rows and returns them as the update left them",
    arguments: RequestProtocolStore.allCases)
  func updateAndFetchAll(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makePlayers(store, directory)
    try writer.write { db in
      guard
        let updated = try withReturning({
          try Player.filter(Column("score") < 25).updateAndFetchAll(
            db, [Column("score").set(to: Column("score") + 1)])
        })
      else {
        #expect(try scores(db) == [10, 20, 30, 40])
        return
      }
      #expect(
        Set(updated) == [Player(id: 1, name: "Arthur", score: 11), Player(id: 2, name: "Barbara", score: 21)])
      #expect(try scores(db) == [11, 21, 30, 40])
    }
  }

  @Test("updateAndFetchSet, Cursor, Statement and the closure forms return what they updated")
  func updateForms() throws {
    let directory = TemporaryDirectory()
    let writer = try makePlayers(.queue, directory)
    try writer.write { db in
      guard
        let set = try withReturning({
          try Player.filter(key: 1).updateAndFetchSet(db) { [$0.score.set(to: 0)] }
        })
      else { return }
      #expect(set == [Player(id: 1, name: "Arthur", score: 0)])
      let cursor = try Player.filter(key: 2).updateAndFetchCursor(db, [Column("name").set(to: "Bea")])
      #expect(try cursor.next()?.name == "Bea")
      let all = try Player.filter(key: 3).updateAndFetchAll(db) { [$0.score.set(to: 3)] }
      #expect(all.map(\.score) == [3])
      let statement = try Player.filter(key: 4).updateAndFetchStatement(db) {
        [$0.score.set(to: $0.score * 10)]
      } select: {
        [$0.score]
      }
      #expect(try Int.fetchAll(statement) == [400])
      let other = try Player.filter(key: 4).updateAndFetchStatement(
        db, [Column("score").set(to: 4)], selection: [Column("name")])
      #expect(try String.fetchAll(other) == ["Diane"])
      #expect(try scores(db) == [0, 20, 3, 4])
    }
  }

  @Test("An update that OR IGNORE skips returns no row for it, with onConflict or the record's policy")
  func updateIgnored() throws {
    let directory = TemporaryDirectory()
    let writer = try makePlayers(.queue, directory)
    try writer.write { db in
      let rename = [Column("name").set(to: "Arthur")]
      var returned: [Player]?
      let sql = try capturedSQL(db) {
        returned = try withReturning({ try Player.all().updateAndFetchAll(db, onConflict: .ignore, rename) })
      }
      guard let returned else { return }
      #expect(returned.map(\.id) == [1])
      #expect(sql.contains { $0.hasPrefix(#"UPDATE OR IGNORE "player" SET "name" = ? RETURNING "#) })
      let byPolicy = try TolerantPlayer.all().updateAndFetchAll(db, rename)
      #expect(byPolicy.map(\.id) == [1])
      #expect(throws: DatabaseError.self) { try Player.all().updateAndFetchAll(db, rename) }
      #expect(
        try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id") == [
          "Arthur", "Barbara", "Craig", "Diane",
        ])
    }
  }
}
