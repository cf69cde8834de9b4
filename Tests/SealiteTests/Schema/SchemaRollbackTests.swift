import Foundation
import Sealite
import Testing

@Suite("Schema: a rolled-back schema change is forgotten")
struct SchemaRollbackTests {
  @Test("introspection after a rolled-back CREATE TABLE finds no table")
  func rolledBackCreateTable() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.writeWithoutTransaction { db in
      try db.inTransaction {
        try db.execute(sql: "CREATE TABLE t (a INTEGER PRIMARY KEY, b)")
        #expect(try db.columns(in: "t").map(\.name) == ["a", "b"])
        #expect(try db.primaryKey("t").rowIDColumn == "a")
        return .rollback
      }
      #expect(throws: DatabaseError.self) { try db.columns(in: "t") }
      #expect(throws: DatabaseError.self) { try db.primaryKey("t") }
      #expect(try !db.tableExists("t"))
    }
  }

  @Test("a cached SELECT * after a rolled-back ALTER TABLE has the old columns")
  func rolledBackAlterTable() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.writeWithoutTransaction { db in
      try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t (a) VALUES (1)")
      try db.inTransaction {
        try db.execute(sql: "ALTER TABLE t ADD COLUMN b DEFAULT 2")
        let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM t"))
        #expect(Array(row.columnNames) == ["a", "b"])
        return .rollback
      }
      let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM t"))
      #expect(Array(row.columnNames) == ["a"])
      #expect(try db.columns(in: "t").map(\.name) == ["a"])
    }
  }

  @Test("a schema change rolled back to a savepoint is forgotten")
  func rolledBackSavepoint() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE t (a)")
      try db.inSavepoint {
        try db.execute(sql: "CREATE INDEX t_a ON t(a)")
        #expect(try db.indexes(on: "t").map(\.name) == ["t_a"])
        return .rollback
      }
      #expect(try db.indexes(on: "t").isEmpty)
    }
  }

  @Test("a record inserted after a rolled-back table rebuild uses the table's columns")
  func recordInsertAfterRollback() throws {
    struct Item: Codable, PersistableRecord, FetchableRecord {
      static let databaseTableName = "item"
      var id: Int64
      var name: String
    }
    let dbQueue = try DatabaseQueue()
    try dbQueue.writeWithoutTransaction { db in
      try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
      try db.inTransaction {
        try db.execute(sql: "DROP TABLE item; CREATE TABLE item (name TEXT, id INTEGER PRIMARY KEY)")
        try Item(id: 1, name: "a").insert(db)
        return .rollback
      }
      try Item(id: 2, name: "b").insert(db)
      #expect(try Item.fetchAll(db).map(\.name) == ["b"])
      #expect(try Int.fetchOne(db, sql: "SELECT id FROM item") == 2)
    }
  }
}
