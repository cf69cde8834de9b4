import Foundation
import Sealite
import Testing

// GRDB's DatabasePool makes sure a non-empty `-wal` file (and its `-shm`)
// exists once it is open (Database.setUpWALMode; Tests/GRDBTests/
// DatabasePoolTests.swift, testDatabasePoolCreatesWalShm…), so that read-only
// connections and persistent-WAL setups find them.

private func fileSize(_ path: String) -> Int? {
  (try? FileManager.default.attributesOfItem(atPath: path))?[.size].flatMap { ($0 as? NSNumber)?.intValue }
}

@Suite("A database pool creates non-empty -wal and -shm files when it opens")
struct WALFilesTests {
  @Test("a new pool, plain or encrypted, has non-empty -wal and -shm files", arguments: [false, true])
  func newPool(encrypted: Bool) throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let path = directory.path()
    let pool = try DatabasePool(
      path: path, configuration: encrypted ? rawKeyConfiguration() : Configuration())
    try withExtendedLifetime(pool) { () throws in
      #expect((fileSize(path + "-wal") ?? 0) > 0)
      #expect((fileSize(path + "-shm") ?? 0) > 0)
      #expect(try pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
      // The trick leaves nothing behind in the schema.
      #expect(try pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") } == 0)
    }
  }

  @Test("a pool opened on a rollback-journal database, or after a truncating checkpoint, has a non-empty WAL")
  func existingDatabase() throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let path = directory.path()
    do {
      let queue = try DatabaseQueue(path: path, configuration: rawKeyConfiguration())
      try queue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
    }
    do {
      let pool = try DatabasePool(path: path, configuration: rawKeyConfiguration())
      try withExtendedLifetime(pool) { () throws in
        #expect((fileSize(path + "-wal") ?? 0) > 0)
        #expect((fileSize(path + "-shm") ?? 0) > 0)
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        #expect(fileSize(path + "-wal") == 0)
      }
    }
    let pool = try DatabasePool(path: path, configuration: rawKeyConfiguration())
    try withExtendedLifetime(pool) { () throws in
      #expect((fileSize(path + "-wal") ?? 0) > 0)
      #expect(try pool.read { db in try db.tableExists("t") })
    }
  }
}
