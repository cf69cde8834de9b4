import Foundation
import Sealite
import Testing

// updateAll with a conflict resolution: `UPDATE OR IGNORE`, `OR REPLACE`, and
// GRDB's default, the record type's policy for updates, else ABORT.

private struct Player: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var name: String
  var score: Int

  enum Columns {
    static let name = Column(CodingKeys.name)
    static let score = Column(CodingKeys.score)
  }
}

/// The same table, with a policy that ignores conflicting updates.
private struct TolerantPlayer: Codable, FetchableRecord, PersistableRecord {
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
        INSERT INTO player VALUES (1, 'Arthur', 10), (2, 'Barbara', 20), (3, 'Craig', 30);
        """)
  }
  return writer
}

private func names(_ db: Database) throws -> [String] {
  try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id")
}

/// Renames every player but Arthur to Barbara: Craig's row then breaks the
/// UNIQUE constraint, Barbara's does not.
private func renameToBarbara<T>(_ request: QueryInterfaceRequest<T>) -> QueryInterfaceRequest<T> {
  request.filter(Column("id") != 1)
}

@Suite("updateAll with a conflict resolution: OR IGNORE, OR REPLACE, the record's policy")
struct BatchUpdateConflictTests {
  @Test(
    "onConflict: .ignore writes UPDATE OR IGNORE and skips the rows that break a UNIQUE constraint",
    arguments: RequestProtocolStore.allCases)
  func ignore(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makePlayers(store, directory)
    try writer.write { db in
      var changes = 0
      let sql = try capturedSQL(db) {
        changes = try renameToBarbara(Player.all()).updateAll(
          db, onConflict: .ignore, Column("name").set(to: "Barbara"))
      }
      #expect(sql.contains { $0.hasPrefix(#"UPDATE OR IGNORE "player" SET "name" = "#) })
      #expect(changes == 1)
      #expect(try names(db) == ["Arthur", "Barbara", "Craig"])
    }
  }

  @Test(
    "onConflict: .replace deletes the row that held the value, and updates",
    arguments: RequestProtocolStore.allCases)
  func replace(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makePlayers(store, directory)
    try writer.write { db in
      let sql = try capturedSQL(db) {
        try Player.filter(Column("id") == 3).updateAll(
          db, onConflict: .replace, [Column("name").set(to: "Arthur")])
      }
      #expect(sql.contains { $0.hasPrefix(#"UPDATE OR REPLACE "player""#) })
      #expect(try Player.fetchAll(db).map(\.id) == [2, 3])
      #expect(try names(db) == ["Barbara", "Arthur"])
    }
  }

  @Test("Without onConflict, a plain record's update aborts on a conflict: no OR clause, nothing changed")
  func abortByDefault() throws {
    let directory = TemporaryDirectory()
    let writer = try makePlayers(.queue, directory)
    try writer.write { db throws in
      let capture = SQLCapture(on: db)
      defer { capture.stop(db) }
      let error = #expect(throws: DatabaseError.self) {
        try renameToBarbara(Player.all()).updateAll(db, Column("name").set(to: "Barbara"))
      }
      #expect(error?.resultCode == .SQLITE_CONSTRAINT)
      #expect(try names(db) == ["Arthur", "Barbara", "Craig"])
      // A request of rows has no record type, hence no policy: ABORT too.
      #expect(throws: DatabaseError.self) {
        try renameToBarbara(Table("player").all()).updateAll(db, Column("name").set(to: "Barbara"))
      }
      #expect(capture.writes.count == 2)
      #expect(capture.writes.allSatisfy { $0.hasPrefix(#"UPDATE "player" SET"#) })
    }
  }

  @Test(
    "Without onConflict, the record's persistenceConflictPolicy applies, from every entry point",
    arguments: RequestProtocolStore.allCases)
  func recordPolicyDefault(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makePlayers(store, directory)
    try writer.write { db in
      let rename = Column("name").set(to: "Arthur")
      let sql = try capturedSQL(db) { () throws in
        #expect(try TolerantPlayer.updateAll(db, rename) == 1)
        #expect(try Table<TolerantPlayer>("player").updateAll(db, [rename]) == 1)
        #expect(try renameToBarbara(TolerantPlayer.all()).updateAll(db, rename) == 0)
        #expect(try updateEveryRow(of: TolerantPlayer.self, db, rename) == 1)
      }
      let updates = sql.filter { $0.hasPrefix("UPDATE") }
      #expect(updates.count == 4)
      #expect(updates.allSatisfy { $0.hasPrefix(#"UPDATE OR IGNORE "player""#) })
      #expect(try names(db) == ["Arthur", "Barbara", "Craig"])
      // An explicit resolution wins over the policy.
      #expect(throws: DatabaseError.self) {
        try TolerantPlayer.updateAll(db, onConflict: .abort, rename)
      }
    }
  }

  /// A generic caller gets the record's policy too: GRDB checks the type at
  /// run time.
  private func updateEveryRow<T: TableRecord>(of type: T.Type, _ db: Database, _ assignment: ColumnAssignment)
    throws -> Int
  {
    try T.all().updateAll(db, assignment)
  }

  @Test("The closure forms receive the record's columns, on a request, a Table and the record type")
  func closureForms() throws {
    let directory = TemporaryDirectory()
    let writer = try makePlayers(.queue, directory)
    try writer.write { db throws in
      #expect(try Player.updateAll(db) { $0.score.set(to: 0) } == 3)
      // swift-format-ignore: NoAssignmentInExpressions
      #expect(try Player.filter(Column("id") == 1).updateAll(db, assignment: { $0.score += 5 }) == 1)
      #expect(
        try Table<Player>("player").updateAll(db, onConflict: .ignore) {
          [$0.score.set(to: $0.score + 1), $0.name.set(to: "Zoe")]
        } == 1)
      #expect(try Player.updateAll(db, assignments: { [$0.score.set(to: 7)] }) == 3)
      #expect(try Player.all().updateAll(db) { [$0.score.set(to: $0.score * 2)] } == 3)
      #expect(try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id") == [14, 14, 14])
      #expect(try names(db) == ["Zoe", "Barbara", "Craig"])
    }
  }

  @Test("updateAll without assignments runs nothing and returns 0")
  func emptyAssignments() throws {
    let directory = TemporaryDirectory()
    let writer = try makePlayers(.queue, directory)
    try writer.write { db in
      let sql = try capturedSQL(db) { () throws in
        #expect(try Player.updateAll(db, onConflict: .ignore, []) == 0)
        #expect(try Table("player").updateAll(db) == 0)
      }
      #expect(sql.isEmpty)
    }
  }
}
