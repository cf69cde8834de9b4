import Foundation
import Sealite
import Testing

// `fetchAll` of records and rows steps its statement itself, without a cursor
// object, and a request of a known shape runs the statement it ran last time.
// These tests pin what a cursor used to guarantee: a run that fails in the
// middle ends (its statement idle, its read lock released), a fetch of the
// same SQL while a run is under way gets its own statement, a statement of a
// closed database is refused, and a kept statement never outlives a schema
// change.

/// Fails on the row whose id is 3.
private struct FailsOnThree: FetchableRecord, TableRecord {
  static let databaseTableName = "t"
  struct Refused: Error {}
  var id: Int
  init(row: Row) throws {
    id = row["id"]
    if id == 3 { throw Refused() }
  }
}

private struct Item: Decodable, FetchableRecord, TableRecord, Equatable {
  static let databaseTableName = "t"
  var id: Int
  var name: String
}

@Suite("fetchAll runs its statement without a cursor")
struct FetchAllRunTests {
  private func makeQueue() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
      for id in 1...6 {
        try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [id, "n\(id)"])
      }
    }
    return dbQueue
  }

  @Test("a record that fails on a row ends the run: its statement is idle and the table unlocked")
  func failureEndsTheRun() throws {
    let dbQueue = try makeQueue()
    try dbQueue.inDatabase { db in
      let request = FailsOnThree.order(Column("id"))
      #expect(throws: FailsOnThree.Refused.self) { try request.fetchAll(db) }
      #expect(throws: FailsOnThree.Refused.self) { try FailsOnThree.fetchAll(db, sql: "SELECT id FROM t") }
      let statement = try db.makeStatement(sql: "SELECT id FROM t ORDER BY id")
      #expect(throws: FailsOnThree.Refused.self) { try FailsOnThree.fetchAll(statement) }
      // The runs that failed ran again from their first row.
      #expect(try Item.order(Column("id")).fetchAll(db).map(\.id) == [1, 2, 3, 4, 5, 6])
      #expect(try Int.fetchAll(statement) == [1, 2, 3, 4, 5, 6])
      // A statement left in the middle of its run would hold its read of the
      // table: SQLite refuses to drop a table a statement of the connection reads.
      try db.execute(sql: "DROP TABLE t")
    }
  }

  @Test("a fetch of the same request while a cursor iterates it gets its own statement, and rows")
  func fetchWhileACursorRuns() throws {
    let dbQueue = try makeQueue()
    try dbQueue.read { db in
      let id = Column("id")
      func next(after value: Int) -> QueryInterfaceRequest<Item> {
        Item.filter(id > value).order(id).limit(2)
      }
      // The shape ran once: its statement is kept.
      #expect(try next(after: 0).fetchAll(db).map(\.id) == [1, 2])
      let cursor = try next(after: 1).fetchCursor(db)
      var pairs: [[Int]] = []
      while let item = try cursor.next() {
        pairs.append(try next(after: item.id).fetchAll(db).map(\.id))
        pairs.append(try Row.fetchAll(db, next(after: item.id + 1)).map { $0["id"] as Int })
      }
      #expect(pairs == [[3, 4], [4, 5], [4, 5], [5, 6]])
      // After the cursor, the shape runs again from its first row.
      #expect(try next(after: 4).fetchAll(db) == [Item(id: 5, name: "n5"), Item(id: 6, name: "n6")])
    }
  }

  @Test("fetchAll of a statement outside its database's access, or once its database is gone, is refused")
  func misuse() throws {
    var dbQueue: DatabaseQueue? = try makeQueue()
    let statement = try #require(dbQueue).inDatabase { db in
      try db.makeStatement(sql: "SELECT id, name FROM t")
    }
    let fetches = [{ _ = try Row.fetchAll(statement) }, { _ = try Item.fetchAll(statement) }]
    for fetch in fetches {
      let error = try #require(throws: DatabaseError.self, performing: fetch)
      #expect(error.resultCode == .SQLITE_MISUSE)
      #expect(error.message?.contains("outside of its access closure") == true, "\(error)")
    }
    try dbQueue?.close()
    dbQueue = nil
    for fetch in fetches {
      let error = try #require(throws: DatabaseError.self, performing: fetch)
      #expect(error.resultCode == .SQLITE_MISUSE)
      #expect(error.message?.contains("the database of this statement is closed") == true, "\(error)")
    }
  }

  @Test("a request shape's statement is let go when the schema changes")
  func schemaChange() throws {
    let dbQueue = try makeQueue()
    try dbQueue.inDatabase { db in
      let request = Table("t").filter(Column("id") > 4).order(Column("id"))
      #expect(try request.fetchAll(db).map(\.count) == [2, 2])
      try db.execute(sql: "ALTER TABLE t ADD COLUMN score REAL NOT NULL DEFAULT 1.5")
      let rows = try request.fetchAll(db)
      #expect(rows.map(\.columnNames) == [["id", "name", "score"], ["id", "name", "score"]])
      #expect(rows.map { $0["score"] as Double } == [1.5, 1.5])
      try db.execute(sql: "DROP TABLE t")
      try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, label TEXT)")
      try db.execute(sql: "INSERT INTO t VALUES (5, 'five')")
      #expect(try request.fetchAll(db).map { Array($0.columnNames) } == [["id", "label"]])
    }
  }
}
