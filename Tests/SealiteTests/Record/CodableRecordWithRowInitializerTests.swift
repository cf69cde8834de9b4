import Sealite
import Testing

/// A Codable record that also implements `init(row:)`: GRDB calls the record's
/// own initializer, and so must every fetch of Sealite, however fast its path.
private struct Tagged: Codable, FetchableRecord, TableRecord, Equatable {
  static let databaseTableName = "tagged"
  var id: Int64
  var name: String

  init(id: Int64, name: String) {
    self.id = id
    self.name = name
  }

  init(row: Row) throws {
    id = row["id"]
    name = "row:" + (row["name"] as String)
  }
}

@Suite("A Codable record with its own init(row:)")
struct CodableRecordWithRowInitializerTests {
  private func makeQueue() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE tagged (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
      try db.execute(sql: "INSERT INTO tagged VALUES (1, 'a'), (2, 'b')")
    }
    return dbQueue
  }

  @Test("Every fetch decodes through init(row:), not through Decodable")
  func everyFetchUsesInitRow() throws {
    let dbQueue = try makeQueue()
    try dbQueue.read { (db: Database) throws in
      let expected = [Tagged(id: 1, name: "row:a"), Tagged(id: 2, name: "row:b")]
      #expect(try Tagged.fetchAll(db) == expected)
      #expect(try Array(Tagged.fetchCursor(db)) == expected)
      #expect(try Tagged.fetchAll(db, sql: "SELECT * FROM tagged ORDER BY id") == expected)
      #expect(try Tagged.fetchOne(db) == expected[0])
      #expect(try Tagged.fetchOne(db, key: 2) == expected[1])
      #expect(try Tagged.fetchOne(db, key: 2) == expected[1])
      #expect(try Tagged.fetchOne(db, key: ["id": 1]) == expected[0])
      #expect(try Tagged.filter(Column("id") > 1).fetchAll(db) == [expected[1]])
    }
  }
}

@Suite("Primary-key lookups reuse their statement only while it is idle and current")
struct PrimaryKeyLookupReuseTests {
  @Test("A lookup while a cursor steps the lookup's own SQL reads the right row, and the cursor goes on")
  func lookupDuringCursorOfSameSQL() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE tagged (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
      try db.execute(sql: "INSERT INTO tagged VALUES (1, 'a'), (2, 'b'), (3, 'c')")
    }
    let lookupSQL = Locked<String?>(nil)
    try dbQueue.read { (db: Database) throws in
      db.trace { event in
        if case .statement(let statement) = event, statement.sql.contains("= ?") {
          lookupSQL.withLock { $0 = statement.sql }
        }
      }
      #expect(try Tagged.fetchOne(db, key: 1)?.name == "row:a")
      db.trace(options: [], nil)
      let sql = try #require(lookupSQL.value)
      // The cursor runs the cached statement of the lookup's SQL: lookups
      // made meanwhile need another statement.
      let cursor = try Row.fetchCursor(db, sql: sql, arguments: [3])
      let row = try #require(try cursor.next())
      #expect(try Tagged.fetchOne(db, key: 2)?.name == "row:b")
      #expect(row["name"] as String == "c")
      #expect(try cursor.next() == nil)
      #expect(try Tagged.fetchOne(db, key: 1)?.name == "row:a")
      #expect(try Tagged.fetchOne(db, key: 4) == nil)
    }
  }

  @Test("A lookup after a schema change reads the new columns")
  func lookupAfterSchemaChange() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE tagged (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
      try db.execute(sql: "INSERT INTO tagged VALUES (1, 'a')")
      #expect(try Row.fetchOne(db, sql: "SELECT * FROM tagged WHERE id = 1")?.count == 2)
      #expect(try Tagged.fetchOne(db, key: 1)?.name == "row:a")
      // The same table name, other columns (RENAME COLUMN needs SQLite 3.25).
      try db.execute(sql: "DROP TABLE tagged")
      try db.execute(sql: "CREATE TABLE tagged (id INTEGER PRIMARY KEY, title TEXT, name TEXT NOT NULL)")
      try db.execute(sql: "INSERT INTO tagged VALUES (1, 'a', 'z')")
      #expect(try Tagged.fetchOne(db, key: 1)?.name == "row:z")
    }
  }
}
