import Foundation
import Testing

// @testable: the checks read foreignKeysAreEnforced and force table rebuilds, internals of Schema.
@testable import Sealite

/// A migrator whose "v1" creates `team` and `player(teamId REFERENCES team)`.
private func teamMigrator() -> DatabaseMigrator {
  var migrator = DatabaseMigrator()
  migrator.registerMigration("v1") { db in
    try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
    try db.create(table: "player") { t in
      t.autoIncrementedPrimaryKey("id")
      t.column("name", .text)
      t.belongsTo("team")
    }
  }
  return migrator
}

@Suite("Migrator: foreign key checks")
struct MigratorForeignKeyTests {
  @Test("Deferred checks let a migration pass through violations it fixes before the end")
  func deferredTemporaryViolation() throws {
    let dbQueue = try DatabaseQueue()
    var migrator = teamMigrator()
    migrator.registerMigration("v2") { db in
      try db.execute(sql: "INSERT INTO player (name, teamId) VALUES ('Arthur', 1)")
      try db.execute(sql: "INSERT INTO team (id) VALUES (1)")
    }
    try migrator.migrate(dbQueue)
    try dbQueue.read { db throws in
      #expect(try migrator.hasCompletedMigrations(db))
      #expect(try db.foreignKeysAreEnforced)
    }
  }

  @Test("A deferred violation left at the end is an error naming the table and the row, and is rolled back")
  func deferredViolation() throws {
    let dbQueue = try DatabaseQueue()
    var migrator = teamMigrator()
    migrator.registerMigration("v2") { db in
      try db.execute(sql: "INSERT INTO player (id, name, teamId) VALUES (5, 'Arthur', 99)")
    }
    let error = try #require(throws: DatabaseError.self) { try migrator.migrate(dbQueue) }
    #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
    #expect(error.message?.contains("from player(teamId) to team(id)") == true)
    #expect(error.message?.contains("rowid 5") == true)
    try dbQueue.read { db throws in
      #expect(try migrator.appliedMigrations(db) == ["v1"])
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 0)
      #expect(try db.foreignKeysAreEnforced)
    }
  }

  @Test("Immediate checks refuse the violating statement itself")
  func immediateViolation() throws {
    let dbQueue = try DatabaseQueue()
    var migrator = teamMigrator()
    migrator.registerMigration("v2", foreignKeyChecks: .immediate) { db in
      #expect(try db.foreignKeysAreEnforced)
      #expect(throws: DatabaseError.self) {
        try db.execute(sql: "INSERT INTO player (name, teamId) VALUES ('Arthur', 99)")
      }
      try db.execute(sql: "INSERT INTO team (id) VALUES (1)")
      try db.execute(sql: "INSERT INTO player (name, teamId) VALUES ('Arthur', 1)")
    }
    try migrator.migrate(dbQueue)
    #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
  }

  @Test("Deferred checks let a migration rebuild a referenced table without cascading deletes")
  func rebuildInMigration() throws {
    let dbQueue = try DatabaseQueue()
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try db.create(table: "team") { t in
        t.autoIncrementedPrimaryKey("id")
        t.column("name", .text)
        t.column("obsolete", .text)
      }
      try db.create(table: "player") { t in
        t.autoIncrementedPrimaryKey("id")
        t.belongsTo("team", onDelete: .cascade)
      }
      try db.execute(
        sql: "INSERT INTO team (id, name) VALUES (1, 'Red'); INSERT INTO player (teamId) VALUES (1)")
    }
    migrator.registerMigration("v2") { db in
      try db.alter(table: "team", forcingTableRebuild: true) { t in
        t.rename(column: "name", to: "title")
        t.drop(column: "obsolete")
      }
    }
    try migrator.migrate(dbQueue)
    try dbQueue.read { db throws in
      #expect(try db.columns(in: "team").map(\.name) == ["id", "title"])
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 1)
    }
  }

  @Test("With foreign keys disabled in the configuration, migrations neither enable nor check them")
  func foreignKeysDisabled() throws {
    var configuration = Configuration()
    configuration.foreignKeysEnabled = false
    let dbQueue = try DatabaseQueue(configuration: configuration)
    var migrator = teamMigrator()
    migrator.registerMigration("v2") { db in
      try db.execute(sql: "INSERT INTO player (name, teamId) VALUES ('Arthur', 99)")
    }
    try migrator.migrate(dbQueue)
    try dbQueue.read { db throws in #expect(try !db.foreignKeysAreEnforced) }
  }

  @Test("disablingDeferredForeignKeyChecks skips the final check of the migrations registered after it")
  func disablingChecks() throws {
    let dbQueue = try DatabaseQueue()
    var migrator = teamMigrator().disablingDeferredForeignKeyChecks()
    migrator.registerMigration("v2") { db in
      try db.execute(sql: "INSERT INTO player (name, teamId) VALUES ('Arthur', 99)")
    }
    try migrator.migrate(dbQueue)
    try dbQueue.read { db throws in
      #expect(try migrator.hasCompletedMigrations(db))
      #expect(try Array(db.foreignKeyViolations()).count == 1)
    }
  }
}
