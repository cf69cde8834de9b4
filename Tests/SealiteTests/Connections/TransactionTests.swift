import Foundation
import Sealite
import Testing

/// The kinds of databases every transaction behaviour must hold for.
private enum Store: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case memoryQueue
  case plainQueue
  case encryptedQueue
  case plainPool
  case encryptedPool

  var testDescription: String { rawValue }

  func open(in directory: TemporaryDirectory) throws -> any DatabaseWriter {
    switch self {
    case .memoryQueue: return try DatabaseQueue()
    case .plainQueue: return try DatabaseQueue(path: directory.path())
    case .encryptedQueue:
      return try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
    case .plainPool: return try DatabasePool(path: directory.path())
    case .encryptedPool: return try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
    }
  }
}

private struct TestFailure: Error, Equatable {
  let reason: String
}

/// Opens `store` with a `item(name TEXT)` table, runs `body`, and keeps the
/// directory alive until the writer is closed.
private func withItems(_ store: Store, _ body: (any DatabaseWriter) throws -> Void) throws {
  let directory = TemporaryDirectory()
  try withExtendedLifetime(directory) {
    let writer = try store.open(in: directory)
    try writer.write { db in try db.execute(sql: "CREATE TABLE item (name TEXT NOT NULL UNIQUE)") }
    try body(writer)
    try writer.close()
  }
}

private func names(_ reader: any DatabaseReader) throws -> [String] {
  try reader.read { db in try String.fetchAll(db, sql: "SELECT name FROM item ORDER BY name") }
}

private func insert(_ db: Database, _ name: String) throws {
  try db.execute(sql: "INSERT INTO item (name) VALUES (?)", arguments: [name])
}

@Suite("Transactions on queues and pools")
struct TransactionTests {
  // MARK: write

  @Test("write commits its changes when the closure returns", arguments: Store.allCases)
  fileprivate func writeCommits(store: Store) throws {
    try withItems(store) { writer throws in
      let result = try writer.write { db -> Int64 in
        try insert(db, "a")
        try insert(db, "b")
        return db.lastInsertedRowID
      }
      #expect(result == 2)
      #expect(try names(writer) == ["a", "b"])
    }
  }

  @Test(
    "a file database written by write is readable by a new connection",
    arguments: [Store.plainQueue, .encryptedQueue, .plainPool, .encryptedPool])
  fileprivate func writeIsDurable(store: Store) throws {
    let directory = TemporaryDirectory()
    let writer = try store.open(in: directory)
    try writer.write { db in
      try db.execute(sql: "CREATE TABLE item (name TEXT)")
      try insert(db, "persisted")
    }
    try writer.close()
    let isEncrypted = store == .encryptedQueue || store == .encryptedPool
    let reopened = try DatabaseQueue(
      path: directory.path(), configuration: isEncrypted ? rawKeyConfiguration() : Configuration())
    #expect(try names(reopened) == ["persisted"])
  }

  @Test("write rolls back every change when the closure throws", arguments: Store.allCases)
  fileprivate func writeRollsBackOnThrow(store: Store) throws {
    try withItems(store) { writer throws in
      try writer.write { db in try insert(db, "kept") }
      #expect(throws: TestFailure(reason: "stop")) {
        try writer.write { db in
          try insert(db, "lost-1")
          try db.execute(sql: "UPDATE item SET name = name || '-changed'")
          try insert(db, "lost-2")
          throw TestFailure(reason: "stop")
        }
      }
      #expect(try names(writer) == ["kept"])
      // The writer is usable again, outside of any transaction.
      try writer.writeWithoutTransaction { db in #expect(!db.isInsideTransaction) }
    }
  }

  @Test("write rolls back when one of its statements fails", arguments: Store.allCases)
  fileprivate func writeRollsBackOnFailedStatement(store: Store) throws {
    try withItems(store) { writer throws in
      try writer.write { db in try insert(db, "a") }
      #expect(throws: DatabaseError.self) {
        try writer.write { db in
          try insert(db, "b")
          try insert(db, "a")  // UNIQUE violation
        }
      }
      #expect(try names(writer) == ["a"])
    }
  }

  @Test("write runs inside a transaction; writeWithoutTransaction does not", arguments: Store.allCases)
  fileprivate func transactionState(store: Store) throws {
    try withItems(store) { writer throws in
      #expect(try writer.write { db in db.isInsideTransaction })
      #expect(try !writer.writeWithoutTransaction { db in db.isInsideTransaction })
      #expect(try !writer.barrierWriteWithoutTransaction { db in db.isInsideTransaction })
    }
  }

  @Test("a nested BEGIN inside write fails and the write is rolled back", arguments: Store.allCases)
  fileprivate func nestedBeginInsideWrite(store: Store) throws {
    try withItems(store) { writer throws in
      let error = #expect(throws: DatabaseError.self) {
        try writer.write { db in
          try insert(db, "a")
          try db.execute(sql: "BEGIN")
        }
      }
      #expect(error?.resultCode == .SQLITE_ERROR)
      #expect(try names(writer).isEmpty)
    }
  }

  // MARK: read

  @Test(
    "read runs in a read-only transaction: writing inside it throws SQLITE_READONLY",
    arguments: Store.allCases)
  fileprivate func readIsReadOnly(store: Store) throws {
    try withItems(store) { writer throws in
      try writer.write { db in try insert(db, "a") }
      let error = #expect(throws: DatabaseError.self) {
        try writer.read { db in
          #expect(db.isInsideTransaction)
          try insert(db, "b")
        }
      }
      #expect(error?.resultCode == .SQLITE_READONLY)
      #expect(try names(writer) == ["a"])
      // Writes work again after the failed read.
      try writer.write { db in try insert(db, "c") }
      #expect(try names(writer) == ["a", "c"])
    }
  }

  @Test("read returns the closure's result and propagates its error", arguments: Store.allCases)
  fileprivate func readResultAndError(store: Store) throws {
    try withItems(store) { writer throws in
      try writer.write { db in try insert(db, "a") }
      #expect(try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") } == 1)
      #expect(throws: TestFailure(reason: "in read")) {
        try writer.read { _ in throw TestFailure(reason: "in read") }
      }
      let error = #expect(throws: DatabaseError.self) {
        try writer.read { db in try Row.fetchAll(db, sql: "SELECT * FROM missing_table") }
      }
      #expect(error?.message?.contains("missing_table") == true)
    }
  }

  // MARK: inTransaction

  @Test(
    "inTransaction of every kind commits on .commit and rolls back on .rollback",
    arguments: Store.allCases, [TransactionKind.deferred, .immediate, .exclusive])
  fileprivate func inTransactionKinds(store: Store, kind: TransactionKind) throws {
    try withItems(store) { writer throws in
      try writer.writeWithoutTransaction { db in
        try db.inTransaction(kind) {
          #expect(db.isInsideTransaction)
          try insert(db, "committed")
          return .commit
        }
        try db.inTransaction(kind) {
          try insert(db, "rolled back")
          return .rollback
        }
        #expect(!db.isInsideTransaction)
      }
      #expect(try names(writer) == ["committed"])
    }
  }

  @Test("inTransaction rolls back and rethrows when its closure throws", arguments: Store.allCases)
  fileprivate func inTransactionThrows(store: Store) throws {
    try withItems(store) { writer throws in
      try writer.writeWithoutTransaction { db in
        #expect(throws: TestFailure(reason: "abort")) {
          try db.inTransaction(.immediate) {
            try insert(db, "lost")
            throw TestFailure(reason: "abort")
          }
        }
        #expect(!db.isInsideTransaction)
      }
      #expect(try names(writer).isEmpty)
    }
  }

  // MARK: savepoints

  @Test("a rolled back inner savepoint keeps the outer changes", arguments: Store.allCases)
  fileprivate func innerSavepointRollback(store: Store) throws {
    try withItems(store) { writer throws in
      try writer.write { db in
        try insert(db, "outer")
        try db.inSavepoint {
          try insert(db, "inner")
          return .rollback
        }
        try insert(db, "after")
      }
      #expect(try names(writer) == ["after", "outer"])
    }
  }

  @Test("a rolled back outer savepoint discards the committed inner ones", arguments: Store.allCases)
  fileprivate func outerSavepointRollback(store: Store) throws {
    try withItems(store) { writer throws in
      try writer.writeWithoutTransaction { db in
        try db.inSavepoint {
          try insert(db, "outer")
          try db.inSavepoint {
            try insert(db, "inner")
            try db.inSavepoint {
              try insert(db, "innermost")
              return .commit
            }
            return .commit
          }
          return .rollback
        }
        #expect(!db.isInsideTransaction)
      }
      #expect(try names(writer).isEmpty)
    }
  }

  @Test("savepoints nest three deep, each level rolling back only its own changes", arguments: Store.allCases)
  fileprivate func deepSavepoints(store: Store) throws {
    try withItems(store) { writer throws in
      try writer.write { db in
        try insert(db, "1")
        try db.inSavepoint {
          try insert(db, "2")
          try db.inSavepoint {
            try insert(db, "3")
            try db.inSavepoint {
              try insert(db, "4")
              return .rollback
            }
            return .commit
          }
          try db.inSavepoint {
            try insert(db, "5")
            return .rollback
          }
          return .commit
        }
      }
      #expect(try names(writer) == ["1", "2", "3"])
    }
  }

  @Test(
    "a savepoint whose closure throws is rolled back and the outer transaction goes on",
    arguments: Store.allCases)
  fileprivate func throwingSavepoint(store: Store) throws {
    try withItems(store) { writer throws in
      try writer.write { db in
        try insert(db, "outer")
        #expect(throws: TestFailure(reason: "inner")) {
          try db.inSavepoint {
            try insert(db, "inner")
            throw TestFailure(reason: "inner")
          }
        }
        #expect(db.isInsideTransaction)
        try insert(db, "after")
      }
      #expect(try names(writer) == ["after", "outer"])
    }
  }

  @Test("a savepoint outside of a transaction is a transaction of its own", arguments: Store.allCases)
  fileprivate func savepointAsTransaction(store: Store) throws {
    try withItems(store) { writer throws in
      try writer.writeWithoutTransaction { db in
        try db.inSavepoint {
          #expect(db.isInsideTransaction)
          try insert(db, "a")
          return .commit
        }
        #expect(!db.isInsideTransaction)
        try db.inSavepoint {
          try insert(db, "b")
          return .rollback
        }
      }
      #expect(try names(writer) == ["a"])
    }
  }

  // MARK: writeWithoutTransaction

  @Test(
    "writeWithoutTransaction autocommits each statement, even when the closure throws",
    arguments: Store.allCases)
  fileprivate func writeWithoutTransactionAutocommits(store: Store) throws {
    try withItems(store) { writer throws in
      #expect(throws: TestFailure(reason: "late")) {
        try writer.writeWithoutTransaction { db in
          try insert(db, "a")
          #expect(!db.isInsideTransaction)
          try insert(db, "b")
          throw TestFailure(reason: "late")
        }
      }
      #expect(try names(writer) == ["a", "b"])
    }
  }

  @Test(
    "explicit BEGIN/COMMIT and BEGIN/ROLLBACK through SQL work in writeWithoutTransaction",
    arguments: Store.allCases)
  fileprivate func explicitSQLTransactions(store: Store) throws {
    try withItems(store) { writer throws in
      try writer.writeWithoutTransaction { db in
        try db.execute(sql: "BEGIN IMMEDIATE")
        #expect(db.isInsideTransaction)
        try insert(db, "committed")
        try db.execute(sql: "COMMIT")
        try db.execute(sql: "BEGIN; INSERT INTO item (name) VALUES ('rolled back'); ROLLBACK")
        #expect(!db.isInsideTransaction)
      }
      #expect(try names(writer) == ["committed"])
    }
  }

  // A transaction left open by a closure that returns stops the program, as
  // in GRDB (writeWithoutTransaction rethrows): see ReentrancyTests.
  @Test(
    "a transaction left open by a writeWithoutTransaction closure that throws is rolled back",
    arguments: Store.allCases)
  fileprivate func transactionLeftOpen(store: Store) throws {
    struct Failure: Error {}
    try withItems(store) { writer throws in
      #expect(throws: Failure.self) {
        try writer.writeWithoutTransaction { db in
          try db.execute(sql: "BEGIN")
          try insert(db, "left open")
          throw Failure()
        }
      }
      #expect(try names(writer).isEmpty)
      try writer.write { db in try insert(db, "next") }
      #expect(try names(writer) == ["next"])
    }
  }

  @Test(
    "barrierWriteWithoutTransaction runs the closure, returns its result and autocommits",
    arguments: Store.allCases)
  fileprivate func barrierWrite(store: Store) throws {
    try withItems(store) { writer throws in
      let changes = try writer.barrierWriteWithoutTransaction { db -> Int in
        try insert(db, "a")
        try insert(db, "b")
        return db.totalChangesCount
      }
      #expect(changes >= 2)
      #expect(try names(writer) == ["a", "b"])
      let error = #expect(throws: DatabaseError.self) {
        try writer.barrierWriteWithoutTransaction { db in try db.execute(sql: "BEGIN") }
      }
      #expect(error?.resultCode == .SQLITE_MISUSE)
      try writer.write { db in #expect(db.isInsideTransaction) }
    }
  }
}

@Suite("Transactions of read-only accesses")
struct ReadOnlyTransactionTests {
  @Test("without a kind, a read-only queue's transaction is DEFERRED: it takes no lock before it reads")
  func readOnlyQueueBeginsDeferred() throws {
    let directory = TemporaryDirectory()
    try withExtendedLifetime(directory) {
      let writer = try DatabaseQueue(path: directory.path())
      try writer.write { db in
        try db.execute(sql: "CREATE TABLE item (name TEXT NOT NULL); INSERT INTO item VALUES ('a')")
      }
      var configuration = Configuration()
      configuration.readonly = true
      let reader = try DatabaseQueue(path: directory.path(), configuration: configuration)
      let count = try reader.inDatabase { db -> Int? in
        var count: Int?
        try db.inTransaction {
          count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item")
          return .commit
        }
        return count
      }
      #expect(count == 1)
      // A deferred transaction takes no lock until it reads: another
      // connection commits while it is open. (An IMMEDIATE one on a read-only
      // connection holds a shared lock from the start, and that commit fails.)
      try reader.inDatabase { db in
        try db.beginTransaction()
        try writer.write { db in try db.execute(sql: "INSERT INTO item VALUES ('b')") }
        #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") == 2)
        try db.commit()
      }
    }
  }

  @Test(
    "without a kind, a transaction is DEFERRED while PRAGMA query_only is on, where SQLite refuses the others"
  )
  func queryOnlyBeginsDeferred() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.inDatabase { db in
      try db.execute(sql: "CREATE TABLE item (name TEXT NOT NULL); INSERT INTO item VALUES ('a')")
      try db.execute(sql: "PRAGMA query_only = 1")
      var count: Int?
      try db.inTransaction {
        count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item")
        return .commit
      }
      #expect(count == 1)
      try db.execute(sql: "PRAGMA query_only = 0")
      // Writable again: the default kind (IMMEDIATE) comes back.
      try db.inTransaction {
        try db.execute(sql: "INSERT INTO item VALUES ('b')")
        return .commit
      }
    }
    #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") } == 2)
  }
}
