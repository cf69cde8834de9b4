import Foundation
import Sealite
import Testing

@Suite("Memory, checkpoints, the error log, connection facts")
struct MaintenanceTests {
  @Test("releaseMemory() empties the statement cache, and the connection keeps working")
  func connectionReleasesMemory() throws {
    try DatabaseQueue().write { db in
      try db.execute(sql: "CREATE TABLE t(a)")
      let statement = try db.cachedStatement(sql: "SELECT a FROM t")
      #expect(try db.cachedStatement(sql: "SELECT a FROM t") === statement)
      db.releaseMemory()
      #expect(try db.cachedStatement(sql: "SELECT a FROM t") !== statement)
      try db.execute(sql: "INSERT INTO t VALUES (1)")
      #expect(try Int.fetchAll(db, sql: "SELECT a FROM t") == [1])
    }
  }

  @Test(
    "A pool's releaseMemory() closes its idle readers, unless they are persistent", arguments: [false, true])
  func poolReleasesMemory(persistent: Bool) throws {
    let directory = TemporaryDirectory()
    var configuration = rawKeyConfiguration()
    configuration.label = "memory"
    configuration.persistentReadOnlyConnections = persistent
    let pool = try DatabasePool(path: directory.path(), configuration: configuration)
    try pool.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
    #expect(try pool.read { db in db.description } == "memory.reader.1")
    pool.releaseMemory()
    #expect(try pool.read { db in db.description } == (persistent ? "memory.reader.1" : "memory.reader.2"))
    pool.releaseMemoryEventually()
    #expect(try pool.read { db in db.description } == (persistent ? "memory.reader.1" : "memory.reader.3"))
    try pool.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
    #expect(try pool.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t") } == [1])
  }

  @Test("A queue's releaseMemory() keeps its connection")
  func queueReleasesMemory() throws {
    let queue = try DatabaseQueue()
    try queue.write { db in try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)") }
    queue.releaseMemory()
    #expect(try queue.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t") } == [1])
  }

  @Test("checkpoint(_:on:) copies the WAL into the database, and truncates it in .truncate mode")
  func checkpoints() throws {
    let directory = TemporaryDirectory()
    let pool = try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
    try pool.write { db in try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)") }
    let passive = try pool.writeWithoutTransaction { db in try db.checkpoint() }
    #expect(passive.walFrameCount > 0)
    #expect(passive.checkpointedFrameCount == passive.walFrameCount)
    let truncated = try pool.writeWithoutTransaction { db in try db.checkpoint(.truncate, on: nil) }
    #expect(truncated == (0, 0))
    #expect(try FileManager.default.attributesOfItem(atPath: pool.path + "-wal")[.size] as? Int == 0)
    #expect(try pool.read { db in try Int.fetchOne(db, sql: "SELECT a FROM t") } == 1)
    // Not in WAL mode: nothing to checkpoint.
    let queue = try DatabaseQueue(path: directory.path("other.sqlite"))
    #expect(try queue.writeWithoutTransaction { db in try db.checkpoint(.full) } == (-1, -1))
    let error = #expect(throws: DatabaseError.self) {
      try queue.writeWithoutTransaction { db in try db.checkpoint(on: "nosuchschema") }
    }
    #expect(error?.resultCode == .SQLITE_ERROR)
  }

  @Test("Database.logError receives SQLite's errors, and never a message that may quote a key")
  func errorLog() throws {
    let logged = Shared<[(ResultCode, String)]>([])
    Database.logError = { code, message in logged.update { $0.append((code, message)) } }
    defer { Database.logError = nil }
    #expect(Database.logError != nil)
    let queue = try DatabaseQueue()
    try queue.read { db in
      #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT * FROM logged_missing_table") }
      #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT * FROM pragma_key_zz_secret_zz") }
    }
    let messages = logged.value.filter { $0.1.contains("logged_missing_table") || $0.1.contains("withheld") }
    #expect(
      messages.contains { $0.0 == .SQLITE_ERROR && $0.1.contains("no such table: logged_missing_table") })
    #expect(messages.contains { $0.0 == .SQLITE_ERROR && $0.1.contains("details withheld") })
    #expect(!logged.value.contains { $0.1.contains("zz_secret_zz") })
    Database.logError = nil
    let count = logged.value.count
    try queue.read { db in _ = try? db.execute(sql: "SELECT * FROM logged_missing_table") }
    #expect(logged.value.count == count)
  }

  @Test("sqliteLibVersionNumber is the version the feature probe reports")
  func libraryVersion() {
    let parts = SQLiteFeatures.linked.sqliteVersion.split(separator: ".").compactMap { Int32($0) }
    #expect(parts.count == 3)
    #expect(Database.sqliteLibVersionNumber == parts[0] * 1_000_000 + parts[1] * 1_000 + parts[2])
  }

  @Test("Connection facts: the last error, the argument limit, internal table names, the debug description")
  func connectionFacts() throws {
    var configuration = Configuration()
    configuration.label = "facts"
    try DatabaseQueue(configuration: configuration).write { db in
      _ = try? db.execute(sql: "SELECT * FROM nosuchtable")
      #expect(db.lastErrorCode == .SQLITE_ERROR)
      #expect(db.lastErrorMessage == "no such table: nosuchtable")
      #expect(db.maximumStatementArgumentCount >= 999)
      #expect(db.debugDescription == "<Database: facts>")
    }
    #expect(Database.isSQLiteInternalTable("sqlite_sequence"))
    #expect(Database.isSQLiteInternalTable("pragma_table_info"))
    #expect(!Database.isSQLiteInternalTable("player"))
    #expect(Database.isGRDBInternalTable("grdb_migrations"))
    #expect(Database.isGRDBInternalTable("sealite_change_journal"))
    #expect(!Database.isGRDBInternalTable("player"))
  }

  @Test("writeInTransaction commits or rolls back as the closure says")
  func writeInTransaction() throws {
    let directory = TemporaryDirectory()
    let pool = try DatabasePool(path: directory.path())
    try pool.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
    try pool.writeInTransaction { db in
      try db.execute(sql: "INSERT INTO t VALUES (1)")
      return .commit
    }
    try pool.writeInTransaction(.exclusive) { db in
      try db.execute(sql: "INSERT INTO t VALUES (2)")
      return .rollback
    }
    #expect(try pool.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t") } == [1])
  }
}

@Suite("Extended result codes and NSError bridging")
struct ExtendedResultCodeTests {
  @Test("GRDB's extended codes match the errors SQLite reports")
  func extendedCodes() throws {
    try DatabaseQueue().write { db in
      let error = #expect(throws: DatabaseError.self) {
        try db.execute(sql: "SELECT 'a' = 'b' COLLATE nosuchcollation")
      }
      #expect(error?.resultCode == .SQLITE_ERROR)
      if Database.sqliteLibVersionNumber >= 3_022_000 {
        // SQLite reports the missing collation with an extended code since 3.22.
        #expect(error?.extendedResultCode == DatabaseError.SQLITE_ERROR_MISSING_COLLSEQ)
      }
      do {
        try db.execute(sql: "SELECT 'a' = 'b' COLLATE nosuchcollation")
      } catch ResultCode.SQLITE_ERROR {
      }
    }
    #expect(ResultCode.SQLITE_IOERR_WRITE.primaryResultCode == .SQLITE_IOERR)
    #expect(ResultCode.SQLITE_IOERR_WRITE.rawValue == 778)
    #expect(ResultCode.SQLITE_CONSTRAINT_DATATYPE.rawValue == 3091)
    #expect(DatabaseError.SQLITE_BUSY_RECOVERY == ResultCode.SQLITE_BUSY_RECOVERY)
  }

  @Test("A DatabaseError bridges to NSError with GRDB's domain, the extended code and the description")
  func nsErrorBridging() throws {
    try DatabaseQueue().write { db in
      try db.execute(sql: "CREATE TABLE t(a UNIQUE); INSERT INTO t VALUES (1)")
      let error = #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t VALUES (1)") }
      guard let error else { return }
      let nsError = error as NSError
      #expect(nsError.domain == "GRDB.DatabaseError")
      #expect(nsError.code == Int(ResultCode.SQLITE_CONSTRAINT_UNIQUE.rawValue))
      #expect(nsError.userInfo[NSLocalizedDescriptionKey] as? String == error.description)
      #expect(nsError.userInfo[NSLocalizedFailureReasonErrorKey] as? String == error.message)
    }
  }
}
