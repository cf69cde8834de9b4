import Foundation
import Sealite
import Testing

@Suite("Schema: introspection")
struct SchemaIntrospectionTests {
  @Test("tableExists and viewExists ignore case and tell tables from views")
  func existence() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(
        sql: "CREATE TABLE Player (id INTEGER PRIMARY KEY); CREATE VIEW Roster AS SELECT * FROM Player")
      #expect(try db.tableExists("player"))
      #expect(try !db.tableExists("roster"))
      #expect(try db.viewExists("ROSTER"))
      #expect(try !db.viewExists("player"))
      #expect(try !db.tableExists("nothing"))
    }
  }

  @Test("columns(in:) describes each column, and throws for a missing table")
  func columns() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(
        sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT 'x', anything, b BLOB)")
      let columns = try db.columns(in: "t")
      #expect(columns.map(\.name) == ["id", "name", "anything", "b"])
      #expect(columns.map(\.columnType) == [.integer, .text, nil, .blob])
      #expect(columns.map(\.primaryKeyIndex) == [1, 0, 0, 0])
      #expect(columns.map(\.position) == [0, 1, 2, 3])
      #expect(columns[1].isNotNull && columns[1].defaultValueSQL == "'x'")
      let error = try #require(throws: DatabaseError.self) { try db.columns(in: "missing") }
      #expect(error.message == "no such table: missing")
    }
  }

  @Test("a schema that is not main, temp nor attached throws no such schema, as GRDB words it")
  func unknownSchema() throws {
    let dbQueue = try DatabaseQueue()
    // Outside of a transaction: SQLite before 3.21 can not ATTACH inside one.
    try dbQueue.inDatabase { db in
      try db.execute(sql: "CREATE TABLE t (id INTEGER)")
      try db.execute(sql: "ATTACH DATABASE ':memory:' AS other")
      try db.execute(sql: "CREATE TABLE other.u (id INTEGER)")
      let error = try #require(throws: DatabaseError.self) { try db.columns(in: "t", in: "invalid") }
      #expect(error.message == "no such schema: invalid")
      #expect(error.description == "SQLite error 1: no such schema: invalid")
      #expect(throws: DatabaseError.self) { try db.tableExists("t", in: "invalid") }
      #expect(throws: DatabaseError.self) { try db.indexes(on: "t", in: "invalid") }
      #expect(try db.columns(in: "t", in: "MAIN").map(\.name) == ["id"])
      #expect(try db.columns(in: "u", in: "Other").map(\.name) == ["id"])
      #expect(try db.tableExists("u", in: "other"))
      #expect(try !db.tableExists("u", in: "temp"))
    }
  }

  @Test("primaryKey(_:) tells the hidden rowid, a rowid alias, regular keys and WITHOUT ROWID tables apart")
  func primaryKeys() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE hidden (name TEXT);
          CREATE TABLE alias (id INTEGER PRIMARY KEY, name TEXT);
          CREATE TABLE lowercaseAlias (id integer primary key);
          CREATE TABLE descending (id INTEGER PRIMARY KEY DESC);
          CREATE TABLE uuid (uuid TEXT PRIMARY KEY);
          CREATE TABLE composite (a INTEGER, b TEXT, PRIMARY KEY (b, a));
          CREATE TABLE noRowID (id INTEGER PRIMARY KEY, name TEXT) WITHOUT ROWID;
          CREATE TABLE "quoted without" (k TEXT PRIMARY KEY) without   rowid;
          """)
      let hidden = try db.primaryKey("hidden")
      #expect(
        hidden.columns == ["rowid"] && hidden.rowIDColumn == nil && hidden.isRowID && hidden.tableHasRowID)
      let alias = try db.primaryKey("alias")
      #expect(alias.columns == ["id"] && alias.rowIDColumn == "id" && alias.isRowID && alias.tableHasRowID)
      #expect(try db.primaryKey("lowercaseAlias").rowIDColumn == "id")
      #expect(try db.primaryKey("descending").isRowID == false)
      let uuid = try db.primaryKey("uuid")
      #expect(uuid.columns == ["uuid"] && uuid.rowIDColumn == nil && !uuid.isRowID && uuid.tableHasRowID)
      #expect(try db.primaryKey("composite").columns == ["b", "a"])
      // A single INTEGER primary key of a WITHOUT ROWID table is not the rowid.
      let noRowID = try db.primaryKey("noRowID")
      #expect(
        noRowID.columns == ["id"] && noRowID.rowIDColumn == nil && !noRowID.isRowID && !noRowID.tableHasRowID)
      #expect(try db.primaryKey("quoted without").tableHasRowID == false)
      #expect(throws: DatabaseError.self) { try db.primaryKey("missing") }
    }
  }

  @Test("indexes(on:) reports names, columns, uniqueness and origin")
  func indexes() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE t (code TEXT PRIMARY KEY, email TEXT UNIQUE, a, b);
          CREATE INDEX t_on_a_b ON t(a, b);
          """)
      let indexes = try db.indexes(on: "t").sorted { $0.name < $1.name }
      #expect(indexes.map(\.origin) == [.primaryKeyConstraint, .uniqueConstraint, .createIndex])
      #expect(indexes.map(\.columns) == [["code"], ["email"], ["a", "b"]])
      #expect(indexes.map(\.isUnique) == [true, true, false])
    }
  }

  @Test("foreignKeys(on:) reports each key's mapping, resolving implicit primary keys")
  func foreignKeys() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE parent (a INTEGER, b INTEGER, PRIMARY KEY (a, b));
          CREATE TABLE single (id INTEGER PRIMARY KEY);
          CREATE TABLE child (
            x INTEGER, y INTEGER, s INTEGER REFERENCES single ON DELETE CASCADE,
            FOREIGN KEY (x, y) REFERENCES parent (a, b));
          """)
      let keys = try db.foreignKeys(on: "child").sorted { $0.destinationTable < $1.destinationTable }
      #expect(keys.map(\.destinationTable) == ["parent", "single"])
      #expect(keys[0].originColumns == ["x", "y"] && keys[0].destinationColumns == ["a", "b"])
      #expect(keys[1].originColumns == ["s"] && keys[1].destinationColumns == ["id"])
      #expect(keys[1].onDelete == "CASCADE")
      #expect(try db.foreignKeys(on: "parent").isEmpty)
    }
  }

  @Test("schemaVersion() changes with the schema")
  func schemaVersion() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      let before = try db.schemaVersion()
      try db.execute(sql: "CREATE TABLE t (a)")
      #expect(try db.schemaVersion() != before)
    }
  }

  @Test("The schema cache sees changes made by this connection and by another one")
  func cacheInvalidation() throws {
    let directory = TemporaryDirectory()
    let dbPool = try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
    try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
    // A reader learns the columns and caches them.
    #expect(try dbPool.read { db in try db.columns(in: "t").map(\.name) } == ["a"])
    // Another connection (the writer) changes the schema.
    try dbPool.write { db in try db.alter(table: "t") { t in t.add(column: "b") } }
    #expect(try dbPool.read { db in try db.columns(in: "t").map(\.name) } == ["a", "b"])
    try dbPool.write { db in
      #expect(try db.columns(in: "t").map(\.name) == ["a", "b"])
      try db.execute(sql: "ALTER TABLE t ADD COLUMN c")
      #expect(try db.columns(in: "t").map(\.name) == ["a", "b", "c"])
      #expect(try db.primaryKey("t").isRowID)
      try db.execute(sql: "DROP TABLE t; CREATE TABLE t (id TEXT PRIMARY KEY)")
      #expect(try db.primaryKey("t").columns == ["id"])
      #expect(try db.columns(in: "t").map(\.name) == ["id"])
    }
  }

  @Test("A temporary table shadows a main table of the same name in the cache too")
  func temporaryShadowing() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.writeWithoutTransaction { db in
      try db.execute(sql: "CREATE TABLE t (a)")
      #expect(try db.columns(in: "t").map(\.name) == ["a"])
      try db.execute(sql: "CREATE TEMPORARY TABLE t (b, c)")
      #expect(try db.columns(in: "t").map(\.name) == ["b", "c"])
    }
  }

  @Test("foreignKeyViolations and checkForeignKeys name the table, the columns and the row")
  func violations() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.writeWithoutTransaction { db in
      try db.execute(
        sql: """
          PRAGMA foreign_keys = OFF;
          CREATE TABLE artist (id INTEGER PRIMARY KEY);
          CREATE TABLE track (id INTEGER PRIMARY KEY, artistId INTEGER REFERENCES artist(id));
          INSERT INTO track VALUES (7, 42);
          PRAGMA foreign_keys = ON;
          """)
      let violations = try Array(db.foreignKeyViolations())
      #expect(violations.count == 1)
      #expect(violations.first?.originTable == "track")
      #expect(violations.first?.originRowID == 7)
      #expect(violations.first?.destinationTable == "artist")
      #expect(try Array(db.foreignKeyViolations(in: "artist")).isEmpty)
      let error = try #require(throws: DatabaseError.self) { try db.checkForeignKeys() }
      #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
      #expect(
        error.message == "FOREIGN KEY constraint violation - from track(artistId) to artist(id), in rowid 7")
      try db.checkForeignKeys(in: "artist")
    }
  }

  @Test("With public statement arguments, the violation shows the row's values")
  func violationWithValues() throws {
    var configuration = Configuration()
    configuration.publicStatementArguments = true
    configuration.foreignKeysEnabled = false
    let dbQueue = try DatabaseQueue(configuration: configuration)
    try dbQueue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE artist (id INTEGER PRIMARY KEY);
          CREATE TABLE track (id INTEGER PRIMARY KEY, artistId INTEGER REFERENCES artist(id));
          INSERT INTO track VALUES (7, 42);
          """)
      let error = try #require(throws: DatabaseError.self) { try db.checkForeignKeys() }
      #expect(error.message?.hasSuffix("in [id:7 artistId:42]") == true)
    }
  }

  @Test(
    "tableExists is remembered until the schema changes: tables created, dropped and rolled back, here or by another connection, are seen at once"
  )
  func tableExistsFollowsTheSchema() throws {
    let directory = TemporaryDirectory()
    let pool = try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
    try pool.write { db in
      #expect(try !db.tableExists("t"))
      try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)")
      #expect(try db.tableExists("t"))
    }
    try pool.writeWithoutTransaction { db in
      try db.execute(sql: "BEGIN; DROP TABLE t")
      #expect(try !db.tableExists("t"))
      try db.execute(sql: "ROLLBACK")
      #expect(try db.tableExists("t"))
    }
    let other = try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
    try other.write { db in try db.execute(sql: "DROP TABLE t; CREATE TEMP TABLE u (x)") }
    #expect(try pool.write { db in try db.tableExists("t") } == false)
    #expect(try pool.read { db in try db.tableExists("t") } == false)
    // A temporary table belongs to the connection that made it.
    #expect(try other.read { db in try db.tableExists("u") })
    #expect(try pool.write { db in try db.tableExists("u") } == false)
    try other.close()
  }
}
