import Foundation
import Sealite
import Testing

/// `statement.execute(arguments: [a, b])` binds each value as it converts it,
/// without building StatementArguments first: it must behave exactly as the
/// StatementArguments path does, errors included.
@Suite("Statement.execute with an array of arguments")
struct StatementArrayArgumentsTests {
  private func makeQueue() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, a, b, c, d)")
    }
    return dbQueue
  }

  private func rows(_ dbQueue: DatabaseQueue) throws -> [Row] {
    try dbQueue.read { db in try Row.fetchAll(db, sql: "SELECT a, b, c, d FROM t ORDER BY id") }
  }

  @Test("Values of every storage class, optionals and nil bind in order; the statement keeps them")
  func bindsInOrder() throws {
    let dbQueue = try makeQueue()
    let blob = Data([0, 1, 2, 255])
    let missing: Int? = nil
    let present: String? = "here"
    let kept = try dbQueue.write { db -> StatementArguments in
      let statement = try db.makeStatement(sql: "INSERT INTO t (a, b, c, d) VALUES (?, ?, ?, ?)")
      try statement.execute(arguments: [1, "text", 2.5, blob])
      try statement.execute(arguments: [nil, missing, present, Int64.min])
      return statement.arguments
    }
    let expected: StatementArguments = [nil, missing, present, Int64.min]
    #expect(kept == expected)
    let rows = try rows(dbQueue)
    #expect(rows.count == 2)
    #expect(rows[0] == ["a": 1, "b": "text", "c": 2.5, "d": blob])
    let second: [DatabaseValue] = (0..<4).map { rows[1][$0] }
    #expect(second == [.null, .null, "here".databaseValue, Int64.min.databaseValue])
  }

  @Test("Every run binds every parameter: nothing is left from the previous run")
  func reuse() throws {
    let dbQueue = try makeQueue()
    try dbQueue.write { db in
      let statement = try db.cachedStatement(sql: "INSERT INTO t (a, b) VALUES (?, ?)")
      for value in 0..<100 {
        try statement.execute(arguments: [value, value.isMultiple(of: 2) ? nil : "odd \(value)"])
      }
    }
    let rows = try rows(dbQueue)
    #expect(rows.count == 100)
    for (value, row) in rows.enumerated() {
      let a: DatabaseValue = row["a"]
      let b: DatabaseValue = row["b"]
      #expect(a == value.databaseValue)
      #expect(b == (value.isMultiple(of: 2) ? DatabaseValue.null : "odd \(value)".databaseValue))
    }
  }

  @Test("An empty array runs a statement without parameters; nil keeps the arguments last bound")
  func emptyAndNil() throws {
    let dbQueue = try makeQueue()
    let kept = try dbQueue.write { db -> StatementArguments in
      try db.makeStatement(sql: "INSERT INTO t DEFAULT VALUES").execute(arguments: [])
      let statement = try db.makeStatement(sql: "INSERT INTO t (a) VALUES (?)")
      try statement.execute(arguments: ["again"])
      try statement.execute(arguments: nil)
      return statement.arguments
    }
    #expect(kept == ["again"])
    let rows = try rows(dbQueue)
    #expect(rows.count == 3)
    let a: [DatabaseValue] = rows.map { $0["a"] }
    #expect(a == [.null, "again".databaseValue, "again".databaseValue])
  }

  @Test("Named parameters take the values of an array in order, as with StatementArguments")
  func namedParameters() throws {
    let dbQueue = try makeQueue()
    try dbQueue.write { db in
      try db.makeStatement(sql: "INSERT INTO t (a, b) VALUES (:x, $y)").execute(arguments: [
        "first", "second",
      ])
    }
    #expect(try rows(dbQueue).first == ["a": "first", "b": "second", "c": nil, "d": nil])
  }

  @Test("A wrong count of values is the same misuse error, and runs nothing", arguments: [1, 3])
  func wrongCount(count: Int) throws {
    let dbQueue = try makeQueue()
    let values: [(any DatabaseValueConvertible)?] = Array(repeating: 7, count: count)
    let arrayError = #expect(throws: DatabaseError.self) {
      try dbQueue.write { db in
        try db.makeStatement(sql: "INSERT INTO t (a, b) VALUES (?, ?)").execute(arguments: values)
      }
    }
    let argumentsError = #expect(throws: DatabaseError.self) {
      try dbQueue.write { db in
        try db.makeStatement(sql: "INSERT INTO t (a, b) VALUES (?, ?)")
          .execute(arguments: StatementArguments(values))
      }
    }
    #expect(arrayError?.resultCode == .SQLITE_MISUSE)
    #expect(arrayError?.message?.contains("wrong number of statement arguments") == true)
    #expect(arrayError?.message == argumentsError?.message)
    #expect(try rows(dbQueue).isEmpty)
  }

  @Test("An unsigned value above Int64.max is rejected before the statement runs")
  func unsignedOutOfRange() throws {
    let dbQueue = try makeQueue()
    let error = #expect(throws: DatabaseError.self) {
      try dbQueue.write { db in
        let statement = try db.makeStatement(sql: "INSERT INTO t (a, b, c) VALUES (?, ?, ?)")
        try statement.execute(arguments: [1.5, UInt64.max, "after"])
      }
    }
    #expect(error?.resultCode == .SQLITE_MISUSE)
    #expect(error?.message?.contains(String(UInt64.max)) == true)
    #expect(try rows(dbQueue).isEmpty)
    // In range, the same types are fine.
    try dbQueue.write { db in
      try db.makeStatement(sql: "INSERT INTO t (a, b, c) VALUES (?, ?, ?)")
        .execute(arguments: [1.5, UInt64(Int64.max), Float(0.5)])
    }
    #expect(try rows(dbQueue) == [["a": 1.5, "b": Int64.max, "c": 0.5, "d": nil]])
  }

  @Test(
    "An enum whose raw value does not fit SQLite's integers binds the same REAL as with StatementArguments")
  func rawValueBeyondInt64() throws {
    // The array binds each value with its own bind(to:at:), StatementArguments
    // with the value's databaseValue: an enum over UInt64 must bind the same
    // through both, whichever of its raw value or database value is bound.
    let dbQueue = try makeQueue()
    let kept = try dbQueue.write { db -> StatementArguments in
      let statement = try db.makeStatement(sql: "INSERT INTO t (a, b, c, d) VALUES (?, ?, ?, ?)")
      try statement.execute(arguments: [1, HugeFlag.top, "after", nil])
      try statement.execute(arguments: StatementArguments([1, HugeFlag.top, "after", nil]))
      return statement.arguments
    }
    #expect(kept == [1, Double(UInt64.max), "after", nil])
    let rows = try rows(dbQueue)
    #expect(rows.count == 2)
    #expect(rows[0] == rows[1])
    #expect(rows[0] == ["a": 1, "b": Double(UInt64.max), "c": "after", "d": nil])
  }

  @Test("A failing run reports the values it was given")
  func errorCarriesArguments() throws {
    let dbQueue = try makeQueue()
    try dbQueue.write { db in try db.execute(sql: "CREATE UNIQUE INDEX t_a ON t(a)") }
    let error = #expect(throws: DatabaseError.self) {
      try dbQueue.write { db in
        let statement = try db.makeStatement(sql: "INSERT INTO t (a) VALUES (?)")
        try statement.execute(arguments: ["once"])
        try statement.execute(arguments: ["once"])
      }
    }
    #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE)
    #expect(error?.arguments == ["once"])
    #expect(error?.description.contains("once") == false)
  }
}

/// A flag whose raw value does not fit SQLite's integers.
private enum HugeFlag: UInt64, DatabaseValueConvertible {
  case top = 18_446_744_073_709_551_615
}
