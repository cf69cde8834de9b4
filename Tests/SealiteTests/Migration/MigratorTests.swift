import Foundation
import Testing

// @testable: the checks read foreignKeysAreEnforced and force table rebuilds, internals of Schema.
@testable import Sealite

/// Every schema object and every row, as comparable text.
private func schemaAndData(_ db: Database) throws -> [String] {
  var lines = try String.fetchAll(
    db, sql: "SELECT type || ' ' || name || ' ' || IFNULL(sql, '') FROM sqlite_master ORDER BY type, name")
  let tables = try String.fetchAll(
    db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name")
  for table in tables {
    lines += try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier) ORDER BY 1").map {
      "\(table): \($0)"
    }
  }
  return lines
}

/// A migrator whose migrations each log their identifier in a table.
private func loggingMigrator(_ identifiers: [String]) -> DatabaseMigrator {
  var migrator = DatabaseMigrator()
  for identifier in identifiers {
    migrator.registerMigration(identifier) { db in
      try db.execute(sql: "CREATE TABLE IF NOT EXISTS runs (identifier TEXT)")
      try db.execute(sql: "INSERT INTO runs VALUES (?)", arguments: [identifier])
    }
  }
  return migrator
}

private func runs(_ writer: some DatabaseWriter) throws -> [String] {
  try writer.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM runs ORDER BY rowid") }
}

@Suite("Migrator: running migrations")
struct MigratorTests {
  @Test("Migrations run once, in order; migrating again runs only new ones")
  func onceInOrder() throws {
    let dbQueue = try DatabaseQueue()
    try loggingMigrator(["v1", "v2"]).migrate(dbQueue)
    #expect(try runs(dbQueue) == ["v1", "v2"])
    try loggingMigrator(["v1", "v2"]).migrate(dbQueue)
    #expect(try runs(dbQueue) == ["v1", "v2"])
    try loggingMigrator(["v1", "v2", "v3", "v4"]).migrate(dbQueue)
    #expect(try runs(dbQueue) == ["v1", "v2", "v3", "v4"])
  }

  @Test("Each migration runs in its own transaction")
  func ownTransaction() throws {
    let dbQueue = try DatabaseQueue()
    var migrator = DatabaseMigrator()
    migrator.registerMigration("check") { db in
      #expect(db.isInsideTransaction)
    }
    try migrator.migrate(dbQueue)
  }

  @Test("registeredMigrations lists identifiers in registration order")
  func registered() {
    #expect(loggingMigrator(["b", "a", "c"]).registeredMigrations == ["b", "a", "c"])
    #expect(DatabaseMigrator().registeredMigrations.isEmpty)
  }

  @Test("Registering an identifier twice is an error that names it, and nothing runs")
  func duplicate() throws {
    let dbQueue = try DatabaseQueue()
    var migrator = loggingMigrator(["v1", "v2"])
    migrator.registerMigration("v1") { _ in }
    let error = try #require(throws: DatabaseError.self) { try migrator.migrate(dbQueue) }
    #expect(error.message?.contains("\"v1\"") == true)
    #expect(error.message?.contains("more than once") == true)
    try dbQueue.read { db throws in #expect(try !db.tableExists("runs")) }
  }

  @Test("A throwing migration is rolled back entirely; earlier ones stay applied")
  func failureRollsBack() throws {
    struct Failure: Error {}
    let dbQueue = try DatabaseQueue()
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try db.create(table: "player") { t in
        t.autoIncrementedPrimaryKey("id")
        t.column("name", .text)
      }
      try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
    }
    try migrator.migrate(dbQueue)
    let before = try dbQueue.read(schemaAndData)

    migrator.registerMigration("v2") { db in
      try db.alter(table: "player") { t in t.add(column: "score", .integer) }
      try db.create(table: "team") { t in t.column("name").indexed() }
      try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')")
      try db.execute(sql: "UPDATE player SET name = 'Zed'")
      throw Failure()
    }
    migrator.registerMigration("v3") { db in
      try db.execute(sql: "CREATE TABLE never (a)")
    }
    #expect(throws: Failure.self) { try migrator.migrate(dbQueue) }
    #expect(try dbQueue.read(schemaAndData) == before)
    try dbQueue.read { db throws in
      #expect(try migrator.appliedMigrations(db) == ["v1"])
      #expect(try db.foreignKeysAreEnforced)
    }
  }

  @Test("A failed migration that rebuilt a table leaves schema and data as after the last good one")
  func failureAfterRebuild() throws {
    struct Failure: Error {}
    let dbQueue = try DatabaseQueue()
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try db.execute(
        sql: """
          CREATE TABLE artist (id INTEGER PRIMARY KEY, name TEXT, legacy TEXT);
          CREATE TABLE track (id INTEGER PRIMARY KEY, artistId INTEGER REFERENCES artist(id) ON DELETE CASCADE);
          CREATE INDEX artist_on_name ON artist(name);
          INSERT INTO artist VALUES (1, 'Nina', 'x');
          INSERT INTO track VALUES (1, 1);
          """)
    }
    try migrator.migrate(dbQueue)
    let before = try dbQueue.read(schemaAndData)
    migrator.registerMigration("v2") { db in
      try db.alter(table: "artist", forcingTableRebuild: true) { t in
        t.rename(column: "name", to: "fullName")
        t.drop(column: "legacy")
      }
      throw Failure()
    }
    #expect(throws: Failure.self) { try migrator.migrate(dbQueue) }
    #expect(try dbQueue.read(schemaAndData) == before)
  }

  @Test("migrate(_:upTo:) stops at the target, and refuses to go back or to an unknown migration")
  func upTo() throws {
    let dbQueue = try DatabaseQueue()
    let migrator = loggingMigrator(["v1", "v2", "v3"])
    try migrator.migrate(dbQueue, upTo: "v2")
    #expect(try runs(dbQueue) == ["v1", "v2"])
    try migrator.migrate(dbQueue, upTo: "v2")
    #expect(try runs(dbQueue) == ["v1", "v2"])
    let back = try #require(throws: DatabaseError.self) { try migrator.migrate(dbQueue, upTo: "v1") }
    #expect(back.message?.contains("already migrated beyond migration \"v1\"") == true)
    let unknown = try #require(throws: DatabaseError.self) { try migrator.migrate(dbQueue, upTo: "v9") }
    #expect(unknown.message?.contains("\"v9\"") == true)
    try migrator.migrate(dbQueue)
    #expect(try runs(dbQueue) == ["v1", "v2", "v3"])
  }

  @Test("applied, completed, hasCompleted and hasBeenSuperseded describe the database")
  func state() throws {
    let dbQueue = try DatabaseQueue()
    let migrator = loggingMigrator(["v1", "v2", "v3"])
    try dbQueue.read { db throws in
      #expect(try migrator.appliedMigrations(db).isEmpty)
      #expect(try migrator.completedMigrations(db).isEmpty)
      #expect(try !migrator.hasCompletedMigrations(db))
      #expect(try !migrator.hasBeenSuperseded(db))
    }
    try migrator.migrate(dbQueue, upTo: "v1")
    // A hole: v3 recorded without v2 (as a database edited by hand could be).
    try dbQueue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v3')") }
    try dbQueue.read { db throws in
      #expect(try migrator.appliedMigrations(db) == ["v1", "v3"])
      #expect(try migrator.completedMigrations(db) == ["v1"])
      #expect(try !migrator.hasCompletedMigrations(db))
    }
    try dbQueue.write { db in try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v3'") }
    try migrator.migrate(dbQueue)
    try dbQueue.read { db throws in
      #expect(try migrator.completedMigrations(db) == ["v1", "v2", "v3"])
      #expect(try migrator.hasCompletedMigrations(db))
      #expect(try !migrator.hasBeenSuperseded(db))
      // An older app knows fewer migrations: the database superseded it.
      let older = loggingMigrator(["v1", "v2"])
      #expect(try older.hasBeenSuperseded(db))
      #expect(try older.hasCompletedMigrations(db))
      #expect(try older.appliedIdentifiers(db) == ["v1", "v2", "v3"])
    }
  }

  @Test("Applied migrations are stored in grdb_migrations with GRDB's layout")
  func grdbLayout() throws {
    let dbQueue = try DatabaseQueue()
    try loggingMigrator(["v1", "v2"]).migrate(dbQueue)
    try dbQueue.read { db throws in
      let columns = try db.columns(in: "grdb_migrations")
      #expect(columns.map(\.name) == ["identifier"])
      #expect(columns.map(\.type) == ["TEXT"])
      #expect(columns.map(\.isNotNull) == [true])
      #expect(try db.primaryKey("grdb_migrations").columns == ["identifier"])
      #expect(try Set(String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")) == ["v1", "v2"])
    }
  }

  @Test("A database migrated by GRDB continues with the migrations it has not applied")
  func continuesGRDBDatabase() throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    // The database as GRDB leaves it after "v1" and "v2", written with raw SQL.
    let prepared = try DatabaseQueue(path: path, configuration: rawKeyConfiguration())
    try prepared.writeWithoutTransaction { db in
      try db.execute(
        sql: """
          CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
          CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL);
          INSERT INTO player (name) VALUES ('Arthur');
          ALTER TABLE player ADD COLUMN "score" INTEGER;
          INSERT INTO grdb_migrations VALUES ('v1'), ('v2');
          """)
    }
    try prepared.close()

    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { _ in Issue.record("v1 ran again") }
    migrator.registerMigration("v2") { _ in Issue.record("v2 ran again") }
    migrator.registerMigration("v3") { db in
      try db.create(index: "player_on_score", on: "player", columns: ["score"])
    }
    let dbQueue = try DatabaseQueue(path: path, configuration: rawKeyConfiguration())
    try migrator.migrate(dbQueue)
    try dbQueue.read { db throws in
      #expect(try migrator.completedMigrations(db) == ["v1", "v2", "v3"])
      #expect(try db.indexes(on: "player").map(\.name) == ["player_on_score"])
      #expect(try String.fetchAll(db, sql: "SELECT name FROM player") == ["Arthur"])
    }
  }

  @Test("migrate is called without await in an async function, and asyncMigrate reports completion")
  func asyncMigration() async throws {
    let dbQueue = try DatabaseQueue()
    // GRDB's migrate has no async twin: this line compiles unchanged.
    try loggingMigrator(["v1", "v2"]).migrate(dbQueue)
    #expect(try runs(dbQueue) == ["v1", "v2"])
    let failure: String? = await withCheckedContinuation { continuation in
      loggingMigrator(["v1", "v2", "v3"]).asyncMigrate(dbQueue) { result in
        switch result {
        case .success: continuation.resume(returning: nil)
        case .failure(let error): continuation.resume(returning: "\(error)")
        }
      }
    }
    #expect(failure == nil)
    #expect(try runs(dbQueue) == ["v1", "v2", "v3"])
  }
}
