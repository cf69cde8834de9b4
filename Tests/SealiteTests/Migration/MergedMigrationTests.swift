import Foundation
import Sealite
import Testing

/// What the merged migration was told, from its closure.
private typealias AppliedLog = Locked<[Set<String>]>

/// The migrations of the old app: v1, v2 and v3, each adding one table.
private func oldMigrator() -> DatabaseMigrator {
  var migrator = DatabaseMigrator()
  for version in ["v1", "v2", "v3"] {
    migrator.registerMigration(version) { db in try db.execute(sql: "CREATE TABLE \(version)(a)") }
  }
  return migrator
}

/// The new app: v3 merges v1 and v2, then v4.
private func newMigrator(_ log: AppliedLog) -> DatabaseMigrator {
  var migrator = DatabaseMigrator()
  migrator.registerMigration("v3", merging: ["v1", "v2"]) { db, appliedIDs in
    log.withLock { $0.append(appliedIDs) }
    for version in ["v1", "v2"] where !appliedIDs.contains(version) {
      try db.execute(sql: "CREATE TABLE \(version)(a)")
    }
    try db.execute(sql: "CREATE TABLE v3(a)")
  }
  migrator.registerMigration("v4") { db in try db.execute(sql: "CREATE TABLE v4(a)") }
  return migrator
}

private func recorded(_ db: Database) throws -> [String] {
  try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
}

private func tables(_ db: Database) throws -> [String] {
  try String.fetchAll(
    db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'v%' ORDER BY name")
}

@Suite("Merged migrations")
struct MergedMigrationTests {
  @Test("A new database runs the merged migration with nothing applied")
  func newDatabase() throws {
    let log = AppliedLog([])
    let dbQueue = try DatabaseQueue(configuration: rawKeyConfiguration())
    try newMigrator(log).migrate(dbQueue)
    #expect(log.value == [[]])
    try dbQueue.read { (db: Database) throws in
      #expect(try tables(db) == ["v1", "v2", "v3", "v4"])
      #expect(try recorded(db) == ["v3", "v4"])
    }
  }

  @Test("A database of the old app that applied some merged migrations runs only the rest")
  func partlyMigrated() throws {
    let log = AppliedLog([])
    let directory = TemporaryDirectory()
    let dbPool = try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
    try oldMigrator().migrate(dbPool, upTo: "v1")
    try newMigrator(log).migrate(dbPool)
    #expect(log.value == [["v1"]])
    try dbPool.read { (db: Database) throws in
      #expect(try tables(db) == ["v1", "v2", "v3", "v4"])
      // The merged identifiers are forgotten with the run of the merged migration.
      #expect(try recorded(db) == ["v3", "v4"])
      #expect(try newMigrator(log).appliedMigrations(db) == ["v3", "v4"])
      #expect(try newMigrator(log).hasCompletedMigrations(db))
    }
  }

  @Test(
    "A database of the old app that applied the merged migration under its name only forgets the merged ones")
  func fullyMigrated() throws {
    let log = AppliedLog([])
    let dbQueue = try DatabaseQueue()
    try oldMigrator().migrate(dbQueue)
    try newMigrator(log).migrate(dbQueue)
    // v3 was applied already: its closure does not run again.
    #expect(log.value.isEmpty)
    try dbQueue.read { (db: Database) throws in
      #expect(try tables(db) == ["v1", "v2", "v3", "v4"])
      #expect(try recorded(db) == ["v3", "v4"])
    }
  }

  @Test("A merged migration that throws leaves the database and its recorded migrations as they were")
  func failingMergedMigration() throws {
    let dbQueue = try DatabaseQueue()
    try oldMigrator().migrate(dbQueue, upTo: "v2")
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v3", merging: ["v1", "v2"]) { db, _ in
      try db.execute(sql: "CREATE TABLE v3(a)")
      throw DatabaseError(message: "boom")
    }
    #expect(throws: DatabaseError.self) { try migrator.migrate(dbQueue) }
    try dbQueue.read { (db: Database) throws in
      #expect(try tables(db) == ["v1", "v2"])
      #expect(try recorded(db) == ["v1", "v2"])
    }
  }

  @Test("Registered migrations list the merged migration, not the migrations it merges")
  func migrationsList() {
    #expect(newMigrator(AppliedLog([])).migrations == ["v3", "v4"])
  }
}
