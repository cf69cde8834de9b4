import Foundation
import Sealite
import Testing

@Suite("DatabaseQueue")
struct DatabaseQueueTests {
  private func makeQueue(_ directory: TemporaryDirectory, encrypted: Bool) throws -> DatabaseQueue {
    let queue = try DatabaseQueue(
      path: directory.path(), configuration: encrypted ? rawKeyConfiguration() : Configuration())
    try queue.write { db in try db.execute(sql: "CREATE TABLE item (name TEXT)") }
    return queue
  }

  private func count(_ reader: any DatabaseReader) throws -> Int? {
    try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") }
  }

  @Test(
    "inDatabase runs outside of a transaction and returns the closure's result", arguments: [false, true])
  func inDatabase(encrypted: Bool) throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let queue = try makeQueue(directory, encrypted: encrypted)
    let id = try queue.inDatabase { db -> Int64 in
      #expect(!db.isInsideTransaction)
      try db.execute(sql: "INSERT INTO item (name) VALUES ('a')")
      return db.lastInsertedRowID
    }
    #expect(id == 1)
    #expect(try count(queue) == 1)
  }

  @Test("DatabaseQueue.inTransaction commits on .commit and rolls back on .rollback or a throw")
  func inTransaction() throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let queue = try makeQueue(directory, encrypted: true)
    try queue.inTransaction { db in
      #expect(db.isInsideTransaction)
      try db.execute(sql: "INSERT INTO item (name) VALUES ('kept')")
      return .commit
    }
    try queue.inTransaction(.exclusive) { db in
      try db.execute(sql: "INSERT INTO item (name) VALUES ('rolled back')")
      return .rollback
    }
    struct Stop: Error {}
    #expect(throws: Stop.self) {
      try queue.inTransaction(.deferred) { db in
        try db.execute(sql: "INSERT INTO item (name) VALUES ('thrown away')")
        throw Stop()
      }
    }
    #expect(try queue.read { db in try String.fetchAll(db, sql: "SELECT name FROM item") } == ["kept"])
  }

  @Test("a deferred transaction takes no lock until it first touches the database")
  func deferredTransactionTakesNoLock() throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let queue = try makeQueue(directory, encrypted: false)
    let other = try DatabaseQueue(path: directory.path())
    try queue.inTransaction(.deferred) { _ in
      try other.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('other')") }
      return .commit
    }
    #expect(try count(queue) == 1)
  }

  @Test("an immediate transaction keeps other writers out but lets readers in")
  func immediateTransactionLocks() throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let queue = try makeQueue(directory, encrypted: false)
    let other = try DatabaseQueue(path: directory.path())
    try queue.inTransaction(.immediate) { _ throws in
      let error = #expect(throws: DatabaseError.self) {
        try other.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('other')") }
      }
      #expect(error?.resultCode == .SQLITE_BUSY)
      #expect(try count(other) == 0)
      return .commit
    }
    try other.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('other')") }
    #expect(try count(queue) == 1)
  }

  @Test("an exclusive transaction keeps other readers out (rollback journal)")
  func exclusiveTransactionLocks() throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let queue = try makeQueue(directory, encrypted: false)
    let other = try DatabaseQueue(path: directory.path())
    try queue.inTransaction(.exclusive) { _ throws in
      let error = #expect(throws: DatabaseError.self) { try count(other) }
      #expect(error?.resultCode == .SQLITE_BUSY)
      return .commit
    }
    #expect(try count(other) == 0)
  }

  @Test("a read takes no write lock: another connection can begin a write while it runs")
  func readIsDeferred() throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let queue = try makeQueue(directory, encrypted: true)
    let other = try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
    try queue.read { db in
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") == 0)
      // BEGIN IMMEDIATE would fail with SQLITE_BUSY if the read held a RESERVED lock.
      try other.inTransaction(.immediate) { db in
        try db.execute(sql: "INSERT INTO item (name) VALUES ('other')")
        return .rollback
      }
    }
  }

  @Test(
    "two encrypted queues opened on a new, empty file: the second reads what the first writes",
    arguments: [false, true])
  func twoConnectionsOnANewEncryptedFile(wal: Bool) throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    var config = rawKeyConfiguration()
    config.journalMode = wal ? .wal : .default
    // Both connections open before anything is written (e.g. two processes starting at once).
    let first = try DatabaseQueue(path: directory.path(), configuration: config)
    let second = try DatabaseQueue(path: directory.path(), configuration: config)
    try first.write { db in
      try db.execute(sql: "CREATE TABLE item (name TEXT); INSERT INTO item (name) VALUES ('from first')")
    }
    #expect(try second.read { db in try String.fetchAll(db, sql: "SELECT name FROM item") } == ["from first"])
    try second.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('from second')") }
    #expect(try count(first) == 2)
  }

  // The rethrowing methods (inDatabase, writeWithoutTransaction, unsafeRead)
  // stop the program instead, as in GRDB: see ReentrancyTests.
  @Test("nested reads and writes of the same queue throw a misuse error instead of deadlocking")
  func reentrancyIsMisuse() throws {
    let queue = try DatabaseQueue()
    try queue.write { db in try db.execute(sql: "CREATE TABLE item (name TEXT)") }
    let attempts: [(String, () throws -> Void)] = [
      ("read in read", { try queue.read { _ in try queue.read { _ in } } }),
      ("write in write", { try queue.write { _ in try queue.write { _ in } } }),
      ("read in write", { try queue.write { _ in try queue.read { _ in } } }),
      ("write in read", { try queue.read { _ in try queue.write { _ in } } }),
      (
        "barrier write in inDatabase",
        { try queue.inDatabase { _ in try queue.barrierWriteWithoutTransaction { _ in } } }
      ),
    ]
    for (name, attempt) in attempts {
      let error = #expect(throws: DatabaseError.self, "\(name)") { try attempt() }
      #expect(error?.resultCode == .SQLITE_MISUSE, "\(name)")
    }
    // The queue still works.
    try queue.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('a')") }
    #expect(try count(queue) == 1)
  }

  @Test("each in-memory queue is a private database")
  func inMemoryQueuesArePrivate() throws {
    let first = try DatabaseQueue()
    let second = try DatabaseQueue()
    #expect(first.path == ":memory:")
    try first.write { db in try db.execute(sql: "CREATE TABLE item (name TEXT)") }
    let tables = try second.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master") }
    #expect(tables.isEmpty)
  }

  @Test("an in-memory queue can be encrypted with a key")
  func encryptedInMemoryQueue() throws {
    let queue = try DatabaseQueue(configuration: rawKeyConfiguration())
    try queue.write { db in
      try db.execute(sql: "CREATE TABLE item (name TEXT)")
      try db.execute(sql: "INSERT INTO item (name) VALUES ('a')")
    }
    #expect(try count(queue) == 1)
  }

  @Test("after close, every access throws", arguments: [false, true])
  func closedQueue(encrypted: Bool) throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let queue = try makeQueue(directory, encrypted: encrypted)
    try queue.close()
    #expect(throws: DatabaseError.self) { try count(queue) }
    #expect(throws: DatabaseError.self) {
      try queue.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('a')") }
    }
    #expect(throws: DatabaseError.self) {
      try queue.inDatabase { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('a')") }
    }
    // Closing again is harmless, and the file kept what was committed.
    try queue.close()
    let reopened = try DatabaseQueue(
      path: directory.path(), configuration: encrypted ? rawKeyConfiguration() : Configuration())
    #expect(try count(reopened) == 0)
  }

  @Test("closing a queue from inside one of its accesses throws a misuse error")
  func closeInsideAccess() throws {
    let queue = try DatabaseQueue()
    let error = #expect(throws: DatabaseError.self) {
      try queue.write { _ in try queue.close() }
    }
    #expect(error?.resultCode == .SQLITE_MISUSE)
    #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
  }
}
