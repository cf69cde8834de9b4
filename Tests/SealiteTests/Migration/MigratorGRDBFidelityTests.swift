import Foundation
import Sealite
import Testing

// GRDB's DatabaseMigrator (DatabaseMigrator.swift; Tests/GRDBTests/
// DatabaseMigratorTests.swift): `disablingDeferredForeignKeyChecks()` reaches
// the migrations registered after it only, and `eraseDatabaseOnSchemaChange`
// compares the schema with a temporary database on disk, opened with the
// configuration of the migrated one.

private let foreignKeyViolation = """
  CREATE TABLE parent (id INTEGER NOT NULL PRIMARY KEY);
  CREATE TABLE child (parentId INTEGER REFERENCES parent(id));
  INSERT INTO child (parentId) VALUES (1);
  """

/// The paths of the databases a migration ran on, and whether each file was
/// encrypted when the migration ran there.
private final class MigrationSites: Sendable {
  private let sites = Shared<[(path: String, encrypted: Bool?)]>([])

  func record(_ db: Database) {
    let header = FileManager.default.contents(atPath: db.path).map { $0.prefix(16) }
    let encrypted = header.map { $0.isEmpty ? nil : $0 != Data("SQLite format 3\0".utf8) } ?? nil
    sites.withLock { $0.append((db.path, encrypted)) }
  }

  var all: [(path: String, encrypted: Bool?)] { sites.value }
}

@Suite("Migrator: GRDB's foreign key and erase rules")
struct MigratorGRDBFidelityTests {
  @Test("disablingDeferredForeignKeyChecks() leaves the checks of migrations registered before it")
  func disablingAppliesToLaterMigrationsOnly() throws {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("A") { db in try db.execute(sql: foreignKeyViolation) }
    migrator = migrator.disablingDeferredForeignKeyChecks()
    let ranB = Shared(false)
    migrator.registerMigration("B") { _ in ranB.withLock { $0 = true } }
    let dbQueue = try DatabaseQueue()
    let error = #expect(throws: DatabaseError.self) { try migrator.migrate(dbQueue) }
    #expect(error?.resultCode == .SQLITE_CONSTRAINT)
    #expect(ranB.value == false)
    #expect(try dbQueue.read { db in try migrator.appliedMigrations(db) }.isEmpty)
  }

  @Test("disablingDeferredForeignKeyChecks() lets a migration registered after it commit a violation")
  func disablingAppliesToLaterMigrations() throws {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("A") { db in try db.execute(sql: "CREATE TABLE t (a)") }
    migrator = migrator.disablingDeferredForeignKeyChecks()
    migrator.registerMigration("B") { db in try db.execute(sql: foreignKeyViolation) }
    let dbQueue = try DatabaseQueue()
    try migrator.migrate(dbQueue)
    #expect(try dbQueue.read { db in try migrator.appliedMigrations(db) } == ["A", "B"])
    #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM child") } == 1)
  }

  @Test("eraseDatabaseOnSchemaChange migrates a temporary file encrypted with the same key, then removes it")
  func scratchDatabaseIsAnEncryptedFile() throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let sites = MigrationSites()
    func migrator(columns: [String]) -> DatabaseMigrator {
      var migrator = DatabaseMigrator()
      migrator.eraseDatabaseOnSchemaChange = true
      migrator.registerMigration("v1") { db in
        try db.create(table: "player") { t in
          t.autoIncrementedPrimaryKey("id")
          for column in columns { t.column(column, .text) }
        }
      }
      migrator.registerMigration("v2") { db in
        sites.record(db)
        try db.execute(sql: "CREATE TABLE log (a)")
      }
      return migrator
    }
    let path = directory.path()
    let dbQueue = try DatabaseQueue(path: path, configuration: rawKeyConfiguration())
    try migrator(columns: ["name"]).migrate(dbQueue)
    try migrator(columns: ["name"]).migrate(dbQueue)
    try migrator(columns: ["name", "email"]).migrate(dbQueue)
    #expect(try dbQueue.read { db in try db.columns(in: "player").map(\.name) } == ["id", "name", "email"])
    let scratch = sites.all.filter { $0.path != path }
    // v2 ran on the database twice (first migration, migration after erase),
    // and on a scratch file each time the schema was compared.
    #expect(sites.all.count - scratch.count == 2)
    #expect(scratch.count == 2)
    for site in scratch {
      #expect(site.path != ":memory:" && site.path.hasPrefix("/"))
      #expect(site.encrypted == true, "the scratch file is encrypted")
      #expect(!FileManager.default.fileExists(atPath: site.path), "the scratch file is removed")
    }
  }

  @Test("eraseDatabaseOnSchemaChange runs prepareDatabase code that needs a file on the temporary database")
  func prepareDatabaseNeedsAFile() throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    var config = rawKeyConfiguration()
    config.prepareDatabase { db in
      // Code that attaches a sibling file, or sets up WAL, fails on `:memory:`.
      guard db.path.hasPrefix("/") else {
        throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "prepareDatabase needs a file")
      }
    }
    var migrator = DatabaseMigrator()
    migrator.eraseDatabaseOnSchemaChange = true
    migrator.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE t (a)") }
    let dbQueue = try DatabaseQueue(path: directory.path(), configuration: config)
    try migrator.migrate(dbQueue)
    try migrator.migrate(dbQueue)
    #expect(try dbQueue.read { db in try migrator.hasSchemaChanges(db) } == false)
    #expect(try dbQueue.read { db in try migrator.appliedMigrations(db) } == ["v1"])
  }
}
