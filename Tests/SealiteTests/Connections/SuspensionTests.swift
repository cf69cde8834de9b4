import Foundation
import Sealite
import Testing

private func suspend() {
  NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
}

private func resume() {
  NotificationCenter.default.post(name: Database.resumeNotification, object: nil)
}

private func suspendable(_ base: Configuration) -> Configuration {
  var configuration = base
  configuration.observesSuspensionNotifications = true
  return configuration
}

private func count(_ db: Database) throws -> Int {
  try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
}

/// The notifications reach every suspendable database of the process: the
/// tests of this suite run one at a time.
@Suite("Suspension notifications", .serialized)
struct SuspensionTests {
  @Test("A suspended queue refuses writes and reads with SQLITE_ABORT until it is resumed")
  func suspendedQueue() throws {
    let directory = TemporaryDirectory()
    let dbQueue = try DatabaseQueue(path: directory.path(), configuration: suspendable(rawKeyConfiguration()))
    try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
    suspend()
    defer { resume() }
    let writeError = #expect(throws: DatabaseError.self) {
      try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
    }
    #expect(writeError?.resultCode == .SQLITE_ABORT)
    #expect(writeError?.message == "Database is suspended")
    // Not in WAL mode: a read takes a lock too.
    let readError = #expect(throws: DatabaseError.self) { try dbQueue.read(count) }
    #expect(readError?.resultCode == .SQLITE_ABORT)
    resume()
    try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
    #expect(try dbQueue.read(count) == 1)
  }

  @Test("A suspended pool keeps reading, and refuses writes")
  func suspendedPool() throws {
    let directory = TemporaryDirectory()
    let dbPool = try DatabasePool(path: directory.path(), configuration: suspendable(rawKeyConfiguration()))
    try dbPool.write { db in try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)") }
    suspend()
    defer { resume() }
    #expect(try dbPool.read(count) == 1)
    // The writer's own reads are WAL reads too.
    #expect(try dbPool.writeWithoutTransaction(count) == 1)
    let error = #expect(throws: DatabaseError.self) {
      try dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
    }
    #expect(error?.resultCode == .SQLITE_ABORT)
    resume()
    try dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
    #expect(try dbPool.read(count) == 2)
  }

  @Test("Suspension rolls back the open transaction at its next write, releasing its lock")
  func openTransaction() throws {
    let directory = TemporaryDirectory()
    let dbQueue = try DatabaseQueue(path: directory.path(), configuration: suspendable(Configuration()))
    try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
    defer { resume() }
    try dbQueue.writeWithoutTransaction { db in
      try db.execute(sql: "BEGIN IMMEDIATE TRANSACTION")
      try db.execute(sql: "INSERT INTO t VALUES (1)")
      suspend()
      let error = #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t VALUES (2)") }
      #expect(error?.resultCode == .SQLITE_ABORT)
      #expect(!db.isInsideTransaction)
    }
    // Another connection can write: no lock was kept.
    let other = try DatabaseQueue(path: directory.path())
    try other.write { db in try db.execute(sql: "INSERT INTO t VALUES (3)") }
    resume()
    #expect(try dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t") } == [3])
  }

  @Test("A database that does not observe the notifications is not suspended")
  func notObserving() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
    suspend()
    defer { resume() }
    try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
    #expect(try dbQueue.read(count) == 1)
  }
}
