import Foundation
import Sealite
import Testing

// A record's UPDATE binds the values of its persistence container where they
// are, picked by the column each parameter sets: the record's columns come in
// its own order, the SET clause in the table's and the WHERE clause in the
// primary key's. These tests give it records whose three orders all differ.

/// Encodes its columns in an order that is neither the table's nor its key's.
private struct Pair: Codable, FetchableRecord, PersistableRecord, Equatable {
  var y: Int
  var k1: String
  var x: String
  var k2: Int?
}

/// Writes only some of the table's columns, in yet another order.
private struct PartialPair: Codable, PersistableRecord {
  static let databaseTableName = "pair"
  var k2: Int
  var x: String
  var k1: String
}

@Suite("A record's UPDATE binds each container value to its own parameter")
struct RecordUpdateBindingTests {
  private func makeQueue() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue(configuration: rawKeyConfiguration())
    try dbQueue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE pair (
            k1 TEXT NOT NULL, x TEXT, k2 INTEGER, y INTEGER CHECK (y >= 0), PRIMARY KEY (k2, k1))
          """)
    }
    return dbQueue
  }

  @Test("Records in their own column order update the row of their key, each value in its column")
  func updatesEachColumn() throws {
    let dbQueue = try makeQueue()
    try dbQueue.write { db in
      let records = (0..<20).map { Pair(y: $0, k1: "k\($0 % 3)", x: "x\($0)", k2: $0) }
      for record in records { try record.insert(db) }
      var updated = records
      for index in updated.indices {
        updated[index].y += 100
        updated[index].x = "updated \(index)"
        try updated[index].update(db)
      }
      #expect(try Pair.order(Column("k2")).fetchAll(db) == updated)
      // update(columns:) and a record of other columns pick their own values.
      var one = updated[5]
      one.x = "only x"
      one.y = 7
      try one.update(db, columns: ["x"])
      #expect(
        try Pair.fetchOne(db, sql: "SELECT * FROM pair WHERE k2 = 5")
          == Pair(y: 105, k1: "k2", x: "only x", k2: 5))
      try PartialPair(k2: 6, x: "partial", k1: "k0").update(db)
      #expect(
        try Pair.fetchOne(db, sql: "SELECT * FROM pair WHERE k2 = 6")
          == Pair(y: 106, k1: "k0", x: "partial", k2: 6))
    }
  }

  @Test("A failed UPDATE reports the arguments it bound, in the order of its parameters")
  func failureArguments() throws {
    let dbQueue = try makeQueue()
    try dbQueue.write { db in
      try Pair(y: 1, k1: "a", x: "first", k2: 1).insert(db)
      try Pair(y: 1, k1: "a", x: "first", k2: 1).update(db)
      let record = Pair(y: -1, k1: "a", x: "bad", k2: 1)
      let error = #expect(throws: DatabaseError.self) { try record.update(db) }
      #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_CHECK)
      // Each `"column" = ?` of the SQL, SET then WHERE, took that column's value.
      let sql = try #require(error?.sql)
      let columns = sql.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map {
        String($0.element)
      }
      .filter { $0 != "pair" }
      let values: [String: DatabaseValue] = [
        "y": (-1).databaseValue, "k1": "a".databaseValue, "x": "bad".databaseValue, "k2": 1.databaseValue,
      ]
      #expect(columns.count == 4)
      #expect(error?.arguments == StatementArguments(columns.map { values[$0] }))
      #expect(try Pair.fetchAll(db) == [Pair(y: 1, k1: "a", x: "first", k2: 1)])
    }
  }

  @Test("A record with a NULL key column matches no row: recordNotFound, and nothing changes")
  func nullKey() throws {
    let dbQueue = try makeQueue()
    try dbQueue.write { db in
      try Pair(y: 1, k1: "a", x: "first", k2: 1).insert(db)
      let record = Pair(y: 2, k1: "a", x: "second", k2: nil)
      #expect(throws: RecordError.self) { try record.update(db) }
      #expect(try Pair.fetchAll(db) == [Pair(y: 1, k1: "a", x: "first", k2: 1)])
      // The same statement then binds a complete key again.
      try Pair(y: 3, k1: "a", x: "third", k2: 1).update(db)
      #expect(try Pair.fetchAll(db) == [Pair(y: 3, k1: "a", x: "third", k2: 1)])
    }
  }
}
