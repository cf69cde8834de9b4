import Foundation
import Testing

// @testable: the test reads statement authorization, Core's internal facts of a statement.
@testable import Sealite

@Suite("Schema changes are seen from every statement")
struct SchemaChangeVisibilityTests {
  @Test("a cached SELECT * sees the column added by an ALTER TABLE that starts with a comment")
  func commentedAlterTable() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t (a) VALUES (1)")
      _ = try Row.fetchAll(db, sql: "SELECT * FROM t")
      try db.execute(sql: "-- v2\nALTER TABLE t ADD COLUMN b DEFAULT 2")
      let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM t"))
      #expect(Array(row.columnNames) == ["a", "b"])
      #expect(row["b"] as Int? == 2)
    }
  }

  @Test(
    "schema statements are known whatever their spelling: comments, WITH, lower case",
    arguments: [
      "/* migration 3 */ CREATE TABLE u (x)",
      "-- v2\nALTER TABLE t ADD COLUMN b",
      "  create index t_a on t(a)",
      "DROP TABLE t",
      "CREATE VIEW v AS SELECT a FROM t",
      "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END",
    ])
  func schemaStatements(_ sql: String) throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE t (a)")
      let statement = try db.makeStatement(sql: sql)
      #expect(statement.authorization.invalidatesSchema)
      #expect(statement.authorization.writesContent)
    }
  }

  @Test(
    "data statements do not invalidate the schema, however they begin",
    arguments: [
      "WITH x AS (SELECT 1) INSERT INTO t (a) SELECT * FROM x",
      "-- create a row\nINSERT INTO t (a) VALUES (1)",
      "/* drop */ DELETE FROM t",
      "REPLACE INTO t (a) VALUES (2)",
    ])
  func dataStatements(_ sql: String) throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE t (a)")
      let statement = try db.makeStatement(sql: sql)
      #expect(!statement.authorization.invalidatesSchema)
      #expect(statement.authorization.writesContent)
      #expect(statement.authorization.mayRunInTransaction)
    }
  }

  @Test(
    "VACUUM, ATTACH, DETACH, pragmas and transaction control may not be wrapped in a transaction",
    arguments: [
      "/* compact */ VACUUM", "vacuum", "ATTACH DATABASE ':memory:' AS other", "PRAGMA user_version = 3",
      "BEGIN", "-- end\nCOMMIT", "SAVEPOINT s",
    ])
  func statementsOutsideOfTransactions(_ sql: String) throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.writeWithoutTransaction { db in
      let statement = try db.makeStatement(sql: sql)
      #expect(!statement.authorization.mayRunInTransaction)
    }
  }

  @Test("a word inside a comment or a string is not read as the statement's verb")
  func vacuumInComment() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE t (a)")
      #expect(try db.makeStatement(sql: "/* VACUUM */ SELECT 'VACUUM'").authorization.isVacuum == false)
      #expect(try db.makeStatement(sql: "SELECT a AS vacuum FROM t").authorization.isVacuum == false)
      #expect(try db.makeStatement(sql: "-- x\n VACUUM").authorization.isVacuum)
    }
  }

  @Test("a cached SELECT * sees the column another connection added")
  func otherConnectionSchemaChange() throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let first = try DatabaseQueue(path: path)
    let second = try DatabaseQueue(path: path)
    try first.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t (a) VALUES (1)") }
    let before = try first.read { db in try Row.fetchOne(db, sql: "SELECT * FROM t") }
    #expect(before.map { Array($0.columnNames) } == ["a"])
    try second.write { db in try db.execute(sql: "ALTER TABLE t ADD COLUMN b DEFAULT 2") }
    let after = try first.read { db in try Row.fetchOne(db, sql: "SELECT * FROM t") }
    #expect(after.map { Array($0.columnNames) } == ["a", "b"])
    #expect(after?["b"] as Int? == 2)
  }

  @Test("a pool reader's cached SELECT * sees the column its writer added")
  func poolReaderSchemaChange() throws {
    let directory = TemporaryDirectory()
    let pool = try DatabasePool(path: directory.path())
    try pool.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t (a) VALUES (1)") }
    _ = try pool.read { db in try Row.fetchAll(db, sql: "SELECT * FROM t") }
    try pool.write { db in try db.execute(sql: "ALTER TABLE t ADD COLUMN b DEFAULT 2") }
    let row = try pool.read { db in try Row.fetchOne(db, sql: "SELECT * FROM t") }
    #expect(row.map { Array($0.columnNames) } == ["a", "b"])
  }

  @Test("a trigger created by a commented statement is seen by cached statements' observers")
  func triggerAfterCommentedCreate() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE t (a); CREATE TABLE audit (a)")
    }
    let observer = RecordingObserver(tables: ["audit"])
    dbQueue.add(transactionObserver: observer)
    try dbQueue.write { db in
      try db.cachedStatement(sql: "INSERT INTO t (a) VALUES (1)").execute()
      try db.execute(
        sql: "/* audit */ CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO audit (a) VALUES (new.a); END"
      )
      try db.cachedStatement(sql: "INSERT INTO t (a) VALUES (1)").execute()
    }
    #expect(observer.rows == ["insert audit 1"])
  }
}
