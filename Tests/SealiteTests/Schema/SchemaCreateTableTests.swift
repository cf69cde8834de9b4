import Foundation
import Sealite
import Testing

/// The SQL SQLite stored for a table or index.
private func storedSQL(_ db: Database, _ name: String) throws -> String? {
  try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [name])
}

@Suite("Schema: creating tables")
struct SchemaCreateTableTests {
  @Test("Every column type is declared as GRDB declares it")
  func columnTypes() throws {
    let dbQueue = try DatabaseQueue()
    let types = try dbQueue.write { db in
      try db.create(table: "t") { t in
        t.column("a", .integer)
        t.column("b", .text)
        t.column("c", .real)
        t.column("d", .blob)
        t.column("e", .numeric)
        t.column("f", .boolean)
        t.column("g", .date)
        t.column("h", .datetime)
        t.column("i", .jsonText)
        t.column("j", .any)
        t.column("k")
      }
      return try db.columns(in: "t").map(\.type)
    }
    #expect(
      types == [
        "INTEGER", "TEXT", "REAL", "BLOB", "NUMERIC", "BOOLEAN", "DATE", "DATETIME", "TEXT", "ANY", "",
      ])
  }

  @Test("Column constraints are enforced: NOT NULL, UNIQUE, CHECK, DEFAULT, COLLATE")
  func columnConstraints() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.create(table: "player") { t in
        t.autoIncrementedPrimaryKey("id")
        t.column("name", .text).notNull().unique().collate(.nocase).check { length($0) > 0.sqlExpression }
        t.column("score", .integer).notNull().defaults(to: 0).check(sql: "score >= 0")
        t.column("nickname", .text).defaults(to: "O'Brien")
        t.column("createdAt", .datetime).defaults(sql: "CURRENT_TIMESTAMP")
      }
      try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
      let row = try #require(try Row.fetchOne(db, sql: "SELECT score, nickname, createdAt FROM player"))
      #expect(row["score"] == 0)
      #expect(row["nickname"] == "O'Brien")
      #expect((row["createdAt"] as String?) != nil)

      #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO player (name) VALUES (NULL)") }
      #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO player (name) VALUES ('')") }
      // UNIQUE with NOCASE collation: case does not make a new name.
      #expect(throws: DatabaseError.self) {
        try db.execute(sql: "INSERT INTO player (name) VALUES ('ARTHUR')")
      }
      #expect(throws: DatabaseError.self) {
        try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Barbara', -1)")
      }
      let columns = try db.columns(in: "player")
      #expect(columns.map(\.isNotNull) == [false, true, true, false, false])
      #expect(columns.map(\.defaultValueSQL) == [nil, nil, "0", "'O''Brien'", "CURRENT_TIMESTAMP"])
    }
  }

  @Test("NOT NULL and UNIQUE write their conflict resolution but ABORT; a check compares columns")
  func columnConflictResolutionsAndColumnChecks() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.create(table: "test") { t in
        t.column("a", .integer).notNull(onConflict: .abort).unique(onConflict: .abort)
        t.column("b", .integer).notNull(onConflict: .rollback).unique(onConflict: .replace)
        t.column("c", .integer).notNull()
        t.column("d", .integer).check { $0 != Column("c") }
      }
      #expect(
        try storedSQL(db, "test")
          == #"CREATE TABLE "test" ("a" INTEGER NOT NULL UNIQUE, "#
          + #""b" INTEGER NOT NULL ON CONFLICT ROLLBACK UNIQUE ON CONFLICT REPLACE, "c" INTEGER NOT NULL, "#
          + #""d" INTEGER CHECK ("d" <> "c"))"#)
      try db.execute(sql: "INSERT INTO test (a, b, c, d) VALUES (1, 1, 1, 2)")
      #expect(throws: DatabaseError.self) {
        try db.execute(sql: "INSERT INTO test (a, b, c, d) VALUES (2, 2, 3, 3)")
      }
    }
  }

  @Test("Values in defaults and checks become SQL literals, since DDL takes no arguments")
  func inlinedValues() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.create(table: "t") { t in
        t.column("a", .double).defaults(to: 1.5)
        t.column("b", .blob).defaults(to: Data([0xAB, 0x01]))
        t.column("c", .text).check { $0 != "forbidden".sqlExpression }
        t.check(Column("a") <= 100.sqlExpression)
      }
      let sql = try #require(try storedSQL(db, "t"))
      #expect(sql.contains("DEFAULT 1.5"))
      #expect(sql.contains("DEFAULT X'AB01'"))
      #expect(sql.contains("'forbidden'"))
      #expect(!sql.contains("?"))
      #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t (c) VALUES ('forbidden')") }
      #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t (a) VALUES (101)") }
      try db.execute(sql: "INSERT INTO t (c) VALUES ('fine')")
      #expect(try Data.fetchOne(db, sql: "SELECT b FROM t") == Data([0xAB, 0x01]))
    }
  }

  @Test("Primary keys: auto-incremented rowid, typed, composite")
  func primaryKeys() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.create(table: "a") { t in t.autoIncrementedPrimaryKey("id") }
      try db.create(table: "b") { t in t.primaryKey("uuid", .text) }
      try db.create(table: "c") { t in
        t.column("x", .integer).notNull()
        t.column("y", .text).notNull()
        t.primaryKey(["x", "y"])
      }
      try db.create(table: "d") { t in t.column("code", .text).primaryKey() }
      try db.create(table: "e") { t in
        t.primaryKey {
          t.column("country", .text)
          t.column("number", .integer)
        }
        t.column("note")
      }
      #expect(try storedSQL(db, "a")?.contains("AUTOINCREMENT") == true)
      #expect(try db.primaryKey("a").rowIDColumn == "id")
      #expect(try db.primaryKey("b").columns == ["uuid"])
      #expect(try db.primaryKey("b").isRowID == false)
      #expect(try db.columns(in: "b")[0].isNotNull)
      #expect(try db.primaryKey("c").columns == ["x", "y"])
      #expect(try db.primaryKey("d").columns == ["code"])
      #expect(try db.primaryKey("e").columns == ["country", "number"])
      #expect(try db.columns(in: "e").map(\.isNotNull) == [true, true, false])
      // AUTOINCREMENT: a deleted rowid is never reused.
      try db.execute(
        sql: "INSERT INTO a DEFAULT VALUES; INSERT INTO a DEFAULT VALUES; DELETE FROM a WHERE id = 2")
      try db.execute(sql: "INSERT INTO a DEFAULT VALUES")
      #expect(try Int.fetchOne(db, sql: "SELECT MAX(id) FROM a") == 3)
    }
  }

  @Test("Foreign keys: references, belongsTo, foreignKey, with actions and an index")
  func foreignKeys() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.create(table: "artist") { t in
        t.autoIncrementedPrimaryKey("id")
        t.column("name", .text)
      }
      try db.create(table: "album") { t in
        t.autoIncrementedPrimaryKey("id")
        t.belongsTo("artist", onDelete: .cascade).notNull()
      }
      try db.create(table: "track") { t in
        t.autoIncrementedPrimaryKey("id")
        t.column("albumId", .integer).references("album", onDelete: .setNull).indexed()
        t.column("artistId", .integer)
        t.foreignKey(["artistId"], references: "artist", onDelete: .restrict, deferred: true)
      }
      try db.create(table: "node") { t in
        t.autoIncrementedPrimaryKey("id")
        t.belongsTo("parent", inTable: "node", onDelete: .cascade)
      }

      let albumColumns = try db.columns(in: "album")
      #expect(albumColumns.map(\.name) == ["id", "artistId"])
      #expect(albumColumns[1].type == "INTEGER")
      #expect(albumColumns[1].isNotNull)
      let albumKeys = try db.foreignKeys(on: "album")
      #expect(albumKeys.count == 1)
      #expect(albumKeys[0].destinationTable == "artist")
      #expect(albumKeys[0].originColumns == ["artistId"])
      #expect(albumKeys[0].destinationColumns == ["id"])
      #expect(albumKeys[0].onDelete == "CASCADE")
      #expect(try db.indexes(on: "album").map(\.name) == ["album_on_artistId"])
      #expect(try db.indexes(on: "track").map(\.name) == ["track_on_albumId"])
      #expect(try db.foreignKeys(on: "node").map(\.originColumns) == [["parentId"]])
      #expect(try storedSQL(db, "track")?.contains("DEFERRABLE INITIALLY DEFERRED") == true)

      try db.execute(
        sql: """
          INSERT INTO artist (id, name) VALUES (1, 'Nina');
          INSERT INTO album (id, artistId) VALUES (1, 1);
          INSERT INTO track (id, albumId, artistId) VALUES (1, 1, 1);
          INSERT INTO node (id, parentId) VALUES (1, NULL), (2, 1);
          """)
      #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO album (artistId) VALUES (99)") }
      try db.execute(sql: "DELETE FROM album")
      #expect(try Int.fetchOne(db, sql: "SELECT albumId FROM track") == nil)
      try db.execute(sql: "DELETE FROM node WHERE id = 1")
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM node") == 0)
    }
  }

  @Test("Unique keys and table checks")
  func uniqueKeysAndChecks() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.create(table: "range") { t in
        t.column("low", .integer)
        t.column("high", .integer)
        t.uniqueKey(["low", "high"], onConflict: .ignore)
        t.check(Column("low") <= Column("high"))
      }
      try db.execute(sql: "INSERT INTO range VALUES (1, 2); INSERT INTO range VALUES (1, 2)")
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM range") == 1)
      #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO range VALUES (3, 2)") }
      let unique = try db.indexes(on: "range").filter { $0.origin == .uniqueConstraint }
      #expect(unique.map(\.columns) == [["low", "high"]])
    }
  }

  @Test("Table options: ifNotExists, temporary, withoutRowID")
  func tableOptions() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.create(table: "t", options: .ifNotExists) { t in t.column("a").indexed() }
      try db.create(table: "t", options: .ifNotExists) { t in t.column("a").indexed() }
      #expect(throws: DatabaseError.self) { try db.create(table: "t") { t in t.column("a") } }

      try db.create(table: "scratch", options: .temporary) { t in t.column("a") }
      #expect(try db.tableExists("scratch", in: "temp"))
      #expect(try !db.tableExists("scratch", in: "main"))
      #expect(try db.tableExists("scratch"))

      try db.create(table: "kv", options: .withoutRowID) { t in
        t.primaryKey("key", .integer)
        t.column("value", .text)
      }
      #expect(try storedSQL(db, "kv")?.hasSuffix("WITHOUT ROWID") == true)
      // GRDB's SQL: the key of a WITHOUT ROWID table is NOT NULL by SQLite's rule.
      #expect(try storedSQL(db, "kv")?.contains(#""key" INTEGER PRIMARY KEY,"#) == true)
      #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO kv (value) VALUES ('x')") }
      #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT rowid FROM kv") }
    }
  }

  @Test("STRICT tables are created where SQLite has them, and refused clearly where it does not")
  func strictTables() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      let create = {
        try db.create(table: "strict", options: .strict) { t in
          t.autoIncrementedPrimaryKey("id")
          t.column("n", .integer)
        }
      }
      if SQLiteFeatures.linked.supports(.strictTables) {
        try create()
        #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO strict (n) VALUES ('nope')") }
      } else {
        #expect(TestEnvironment.leg != "primary")
        let error = try #require(throws: SQLiteFeatureError.self) { try create() }
        #expect(error.capability == .strictTables)
        #expect(error.description.contains("3.37.0"))
        #expect(error.description.contains(SQLiteFeatures.linked.sqliteVersion))
        #expect(try !db.tableExists("strict"))
      }
    }
  }

  @Test("Generated columns are created where SQLite has them, and refused clearly where it does not")
  func generatedColumns() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      let create = {
        try db.create(table: "t") { t in
          t.column("a", .integer)
          t.column("b", .integer).generatedAs(Column("a") * 2.sqlExpression, .stored)
        }
      }
      if SQLiteFeatures.linked.supports(.generatedColumns) {
        try create()
        try db.execute(sql: "INSERT INTO t (a) VALUES (21)")
        #expect(try Int.fetchOne(db, sql: "SELECT b FROM t") == 42)
      } else {
        let error = try #require(throws: SQLiteFeatureError.self) { try create() }
        #expect(error.capability == .generatedColumns)
        #expect(try !db.tableExists("t"))
      }
    }
  }

  @Test("A table whose index fails is not created either")
  func atomicCreation() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.writeWithoutTransaction { db in
      try db.execute(sql: "CREATE TABLE other (a); CREATE INDEX t_on_a ON other(a)")
      #expect(throws: DatabaseError.self) {
        try db.create(table: "t") { t in t.column("a").indexed() }
      }
      #expect(try !db.tableExists("t"))
    }
  }

  @Test(
    "A table with an indexed column is created by GRDB's two statements, without a transaction around them")
  func statementsAsGRDB() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.writeWithoutTransaction { db in
      let sql = try capturedSQL(db) {
        try db.create(table: "t") { t in t.column("a").indexed() }
      }
      #expect(sql == [#"CREATE TABLE "t" ("a")"#, #"CREATE INDEX "t_on_a" ON "t"("a")"#])
    }
  }
}
