import Foundation
import Testing

@testable import Sealite

/// An in-memory queue with `t(id INTEGER PRIMARY KEY, name TEXT)` and
/// `log(name TEXT)`, both empty.
private func tableQueue() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { db in
    try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE log (name TEXT)")
  }
  return dbQueue
}

private let insertSQL = "INSERT INTO t (id, name) VALUES (?, ?)"

@Suite("The statements a connection keeps by their SQL")
struct StatementCacheTests {
  @Test("execute(sql:arguments:) runs the statement it kept for SQL of one statement")
  func executeKeepsItsStatement() throws {
    let dbQueue = try tableQueue()
    try dbQueue.write { db in
      try db.execute(sql: insertSQL, arguments: [1, "a"])
      let kept = try db.cachedStatement(sql: insertSQL)
      #expect(kept.arguments == [1, "a"], "the first execute compiled the statement the cache holds")
      try db.execute(sql: insertSQL, arguments: [2, "b"])
      #expect(kept.arguments == [2, "b"], "the second execute ran the same statement")
      #expect(try db.cachedStatement(sql: insertSQL) === kept)
      #expect(
        try Row.fetchAll(db, sql: "SELECT id, name FROM t ORDER BY id") == [
          [
            "id": 1, "name": "a",
          ], ["id": 2, "name": "b"],
        ])
    }
  }

  @Test("a kept statement still checks its arguments, and a refused call writes nothing")
  func keptStatementChecksArguments() throws {
    let dbQueue = try tableQueue()
    try dbQueue.write { db in
      try db.execute(sql: insertSQL, arguments: [1, "a"])
      #expect(db.statementCache[insertSQL] != nil)
      for arguments: StatementArguments in [[2], [2, "b", 3], ["id": 2, "name": "b"], []] {
        #expect(throws: DatabaseError.self) { try db.execute(sql: insertSQL, arguments: arguments) }
      }
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 1)
      // A constraint violation leaves the kept statement ready for the next call.
      #expect(throws: DatabaseError.self) { try db.execute(sql: insertSQL, arguments: [1, "again"]) }
      try db.execute(sql: insertSQL, arguments: [2, "b"])
      #expect(try String.fetchAll(db, sql: "SELECT name FROM t ORDER BY id") == ["a", "b"])
    }
  }

  @Test("a trigger created after a statement was kept is heard by observers when it runs again")
  func keptStatementFollowsTheSchema() throws {
    let dbQueue = try tableQueue()
    let observer = FidelityObserver { kind in kind.tableName == "log" }
    dbQueue.add(transactionObserver: observer)
    try dbQueue.write { db in
      try db.execute(sql: insertSQL, arguments: [1, "a"])
      try db.execute(
        sql: "CREATE TRIGGER logged AFTER INSERT ON t BEGIN INSERT INTO log VALUES (new.name); END")
      try db.execute(sql: insertSQL, arguments: [2, "b"])
    }
    #expect(observer.events == ["insert log 1"])
    #expect(try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT name FROM log") } == ["b"])
  }

  @Test("a DELETE kept before an observer came reports each row to it")
  func keptDeleteAndNewObserver() throws {
    let dbQueue = try tableQueue()
    try dbQueue.write { db in
      // Kept without observers: SQLite may empty the table at once.
      try db.execute(sql: "DELETE FROM t")
      #expect(db.statementCache["DELETE FROM t"] != nil)
      try db.execute(sql: "INSERT INTO t (id, name) VALUES (1, 'a'), (2, 'b')")
    }
    let observer = FidelityObserver()
    dbQueue.add(transactionObserver: observer)
    try dbQueue.write { db in try db.execute(sql: "DELETE FROM t") }
    #expect(observer.events == ["delete t 1", "delete t 2"])
  }

  @Test("execute of the SQL of a statement a cursor steps runs another, and the cursor goes on")
  func executeWhileACursorSteps() throws {
    let dbQueue = try tableQueue()
    try dbQueue.write { db in
      try db.execute(sql: "INSERT INTO t (id, name) VALUES (1, 'a'), (2, 'b'), (3, 'c')")
      let sql = "SELECT name FROM t ORDER BY id"
      let cursor = try String.fetchCursor(db, sql: sql)
      #expect(try cursor.next() == "a")
      try db.execute(sql: sql)
      try db.execute(sql: sql)
      #expect(try cursor.next() == "b")
      #expect(try cursor.next() == "c")
      #expect(try cursor.next() == nil)
    }
  }

  @Test(
    "statements that change the schema or the transaction, pragmas, ATTACH and DETACH are compiled at each execute, not kept",
    arguments: [
      "CREATE TABLE u (a)", "CREATE INDEX i ON t (name)", "BEGIN; COMMIT", "BEGIN", "SAVEPOINT s",
      "PRAGMA user_version = 3", "PRAGMA foreign_keys = ON", "ATTACH DATABASE ':memory:' AS other",
      "VACUUM",
    ])
  func notKept(sql: String) throws {
    let dbQueue = try tableQueue()
    try dbQueue.writeWithoutTransaction { db in
      try db.execute(sql: sql)
      #expect(db.statementCache[sql] == nil)
      if db.isInsideTransaction { try db.execute(sql: "ROLLBACK") }
      #expect(db.statementCache["ROLLBACK"] == nil)
      if sql.hasPrefix("ATTACH") {
        try db.execute(sql: "DETACH DATABASE other")
        #expect(db.statementCache["DETACH DATABASE other"] == nil)
      }
    }
  }

  @Test(
    "a statement that carries key material is never kept, run by execute, fetched or asked for by cachedStatement"
  )
  func keyingStatementsAreNotKept() throws {
    let dbQueue = try tableQueue()
    try dbQueue.write { db in
      // A SELECT, which the cache would keep if it did not call sqlcipher_export.
      let export = "SELECT sqlcipher_export('nowhere')"
      #expect(throws: DatabaseError.self) { try db.execute(sql: export) }
      #expect(db.statementCache[export] == nil)
      _ = try? Row.fetchAll(db, sql: export)
      #expect(db.statementCache[export] == nil)
      // Asked for by name, it is compiled at each call.
      #expect(try db.cachedStatement(sql: export) !== db.cachedStatement(sql: export))
      #expect(db.statementCache[export] == nil)
      // Pragmas that fetch are compiled for each fetch too.
      let pragma = "PRAGMA cipher_version"
      _ = try String.fetchOne(db, sql: pragma)
      #expect(db.statementCache[pragma] == nil)
      // Statements that only mention a key are kept.
      let mention = "SELECT 'pragma key' AS text"
      _ = try String.fetchOne(db, sql: mention)
      #expect(db.statementCache[mention] != nil)
    }
  }

  @Test("SQL of several statements is not kept, and runs every statement at each call")
  func severalStatementsAreNotKept() throws {
    let dbQueue = try tableQueue()
    try dbQueue.write { db in
      let sql = "INSERT INTO t (name) VALUES (?); INSERT INTO log (name) VALUES (?)"
      try db.execute(sql: sql, arguments: ["a", "b"])
      try db.execute(sql: sql, arguments: ["c", "d"])
      #expect(db.statementCache[sql] == nil)
      #expect(try String.fetchAll(db, sql: "SELECT name FROM t ORDER BY id") == ["a", "c"])
      #expect(try String.fetchAll(db, sql: "SELECT name FROM log ORDER BY rowid") == ["b", "d"])
    }
  }

  @Test("the cache keeps at most its capacity, and forgets the statements used least recently")
  func boundedCache() throws {
    let dbQueue = try tableQueue()
    try dbQueue.write { db in
      let hotSQL = "SELECT COUNT(*) FROM t"
      let hot = try db.cachedStatement(sql: hotSQL)
      let extra = 100
      for value in 0..<(StatementCache.capacity + extra) {
        // SQL with a value in it, as a program that interpolates values writes it.
        _ = try Int.fetchOne(db, sql: "SELECT \(value)")
        try db.execute(sql: "UPDATE t SET name = 'n\(value)' WHERE id = 0")
        _ = try Int.fetchOne(db, sql: hotSQL)
      }
      #expect(db.statementCache.count == StatementCache.capacity)
      #expect(try db.cachedStatement(sql: hotSQL) === hot, "a statement in use stays")
      #expect(db.statementCache["SELECT 0"] == nil, "the oldest are forgotten")
      let last = StatementCache.capacity + extra - 1
      #expect(db.statementCache["SELECT \(last)"] != nil)
      #expect(db.statementCache["UPDATE t SET name = 'n\(last)' WHERE id = 0"] != nil)
    }
  }

  @Test("a forgotten statement a cursor still steps runs to its end")
  func forgottenStatementKeepsStepping() throws {
    let dbQueue = try tableQueue()
    try dbQueue.write { db in
      try db.execute(sql: "INSERT INTO t (id, name) VALUES (1, 'a'), (2, 'b')")
      let sql = "SELECT name FROM t ORDER BY id"
      let cursor = try String.fetchCursor(db, sql: sql)
      #expect(try cursor.next() == "a")
      for value in 0..<(StatementCache.capacity + 1) { _ = try Int.fetchOne(db, sql: "SELECT \(value)") }
      #expect(db.statementCache[sql] == nil)
      #expect(try cursor.next() == "b")
      #expect(try cursor.next() == nil)
    }
  }
}
