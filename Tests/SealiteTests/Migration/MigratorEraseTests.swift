import Foundation
import Sealite
import Testing

@Suite("Migrator: eraseDatabaseOnSchemaChange")
struct MigratorEraseTests {
  private static func migrator(v1Columns: [String], erase: Bool) -> DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.eraseDatabaseOnSchemaChange = erase
    migrator.registerMigration("v1") { db in
      try db.create(table: "player") { t in
        t.autoIncrementedPrimaryKey("id")
        for column in v1Columns { t.column(column, .text) }
      }
    }
    return migrator
  }

  @Test("An unchanged migration keeps the database and its data")
  func unchanged() throws {
    let directory = TemporaryDirectory()
    let dbQueue = try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
    try Self.migrator(v1Columns: ["name"], erase: true).migrate(dbQueue)
    try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
    try Self.migrator(v1Columns: ["name"], erase: true).migrate(dbQueue)
    #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
  }

  @Test("An edited migration erases the database and migrates it again")
  func edited() throws {
    let directory = TemporaryDirectory()
    let dbQueue = try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
    try Self.migrator(v1Columns: ["name"], erase: true).migrate(dbQueue)
    try dbQueue.write { db in
      try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur'); CREATE TABLE stray (a)")
    }
    // Without the option, nothing is erased.
    try Self.migrator(v1Columns: ["name", "email"], erase: false).migrate(dbQueue)
    #expect(try dbQueue.read { db in try db.columns(in: "player").map(\.name) } == ["id", "name"])

    try Self.migrator(v1Columns: ["name", "email"], erase: true).migrate(dbQueue)
    try dbQueue.read { db throws in
      #expect(try db.columns(in: "player").map(\.name) == ["id", "name", "email"])
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 0)
      #expect(try !db.tableExists("stray"))
      #expect(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") == ["v1"])
    }
  }

  @Test("A database holding unknown migrations is erased")
  func superseded() throws {
    let dbQueue = try DatabaseQueue()
    var newer = Self.migrator(v1Columns: ["name"], erase: false)
    newer.registerMigration("v2") { db in try db.execute(sql: "CREATE TABLE future (a)") }
    try newer.migrate(dbQueue)
    try Self.migrator(v1Columns: ["name"], erase: true).migrate(dbQueue)
    try dbQueue.read { db throws in
      #expect(try !db.tableExists("future"))
      #expect(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") == ["v1"])
    }
  }
}
