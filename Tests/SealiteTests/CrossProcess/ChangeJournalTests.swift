import Foundation
import Testing

// @testable: ChangeJournal is CrossProcess's internal record of commits.
@testable import Sealite

@Suite("Change journal")
struct ChangeJournalTests {
  private func journal(_ reader: some DatabaseReader) throws -> [[String]] {
    try reader.read { db in
      try ChangeJournal.entries(after: 0, in: db).entries.map { $0.tableNames ?? ["<unreadable>"] }
    }
  }

  private func publishingPool(_ directory: TemporaryDirectory) throws -> DatabasePool {
    var config = rawKeyConfiguration()
    config.publishesChangedTables = true
    let pool = try DatabasePool(path: directory.path(), configuration: config)
    try pool.write { db in
      try db.execute(sql: "CREATE TABLE a (id INTEGER PRIMARY KEY); CREATE TABLE b (id INTEGER PRIMARY KEY)")
    }
    return pool
  }

  @Test("A committed transaction records the tables it changed, in the same transaction")
  func recordsTables() throws {
    let directory = TemporaryDirectory()
    let pool = try publishingPool(directory)
    try pool.write { db in
      try db.execute(sql: "INSERT INTO a DEFAULT VALUES")
      try db.execute(sql: "INSERT INTO b DEFAULT VALUES")
    }
    try pool.write { db in try db.execute(sql: "UPDATE a SET id = id") }
    #expect(try journal(pool) == [["a", "b"], ["a"]])
  }

  @Test("A rolled-back transaction, and one that changed nothing, record nothing")
  func rollbackRecordsNothing() throws {
    let directory = TemporaryDirectory()
    let pool = try publishingPool(directory)
    struct Failure: Error {}
    #expect(throws: Failure.self) {
      try pool.write { db in
        try db.execute(sql: "INSERT INTO a DEFAULT VALUES")
        throw Failure()
      }
    }
    try pool.write { db in try db.execute(sql: "DELETE FROM b WHERE id = 42") }
    #expect(try journal(pool) == [])
  }

  @Test("A statement outside of a transaction gets a transaction of its own, with its entry")
  func autocommitStatementRecorded() throws {
    let directory = TemporaryDirectory()
    let pool = try publishingPool(directory)
    try pool.writeWithoutTransaction { db in
      try db.execute(sql: "INSERT INTO b DEFAULT VALUES")
      #expect(!db.isInsideTransaction)
    }
    #expect(try journal(pool) == [["b"]])
  }

  @Test("The journal keeps its last entries only")
  func pruning() throws {
    let directory = TemporaryDirectory()
    let pool = try publishingPool(directory)
    for _ in 0..<(ChangeJournal.retainedEntryCount + 20) {
      try pool.write { db in try db.execute(sql: "INSERT INTO a DEFAULT VALUES") }
    }
    let count = try pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sealite_change_journal")
    }
    #expect(count == ChangeJournal.retainedEntryCount)
  }

  @Test("Journal entries are encrypted like the rest of the database")
  func journalIsEncrypted() throws {
    let directory = TemporaryDirectory()
    let pool = try publishingPool(directory)
    let marker = "zebra_journal_marker"
    try pool.write { db in
      try db.execute(sql: "CREATE TABLE \(marker) (id INTEGER PRIMARY KEY)")
    }
    try pool.write { db in try db.execute(sql: "INSERT INTO \(marker) DEFAULT VALUES") }
    #expect(try journal(pool).last == [marker])
    for name in ["db.sqlite", "db.sqlite-wal"] {
      let bytes = try #require(fileBytes(directory.path(name)))
      #expect(bytes.range(of: Data(marker.utf8)) == nil, "\(name) holds the table name in clear")
      #expect(bytes.range(of: Data(ChangeJournal.tableName.utf8)) == nil)
    }
  }

  @Test("A dropped journal is created again at the next commit")
  func droppedJournalRecreated() throws {
    let directory = TemporaryDirectory()
    let pool = try publishingPool(directory)
    try pool.write { db in try db.execute(sql: "DROP TABLE sealite_change_journal") }
    try pool.write { db in try db.execute(sql: "INSERT INTO a DEFAULT VALUES") }
    #expect(try journal(pool) == [["a"]])
  }
}
