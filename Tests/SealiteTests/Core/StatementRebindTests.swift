import CSQLCipher
import Foundation
import Testing

@testable import Sealite

/// Each way of binding a statement's arguments, then running it to its first
/// row: what the bound value gave.
enum RebindPath: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case statementArguments, argumentArray, singleArgument

  var testDescription: String { rawValue }

  func bindAndReadFirst(_ statement: Statement, _ value: Int) throws -> Int? {
    switch self {
    case .statementArguments:
      try statement.setArguments(StatementArguments([value]))
    case .argumentArray:
      try statement.setArguments([value] as [(any DatabaseValueConvertible)?])
    case .singleArgument:
      try statement.setArgument(value.databaseValue)
    }
    return try Int.fetchOne(statement)
  }
}

/// A statement is reset before a run or a bind only when a run is in the
/// middle: a run of Sealite's ends with a reset. These check the statements
/// that a run did not leave so: stepped through the C API to a row, or to
/// their end.
@Suite("A statement binds new arguments and runs again however its last run ended")
struct StatementRebindTests {
  @Test("after a run of Sealite's, the next arguments bind and run", arguments: RebindPath.allCases)
  func afterSealiteRun(binding: RebindPath) throws {
    try DatabaseQueue().read { db in
      let statement = try db.makeStatement(sql: "SELECT ? + 1")
      for value in 1...3 {
        #expect(try binding.bindAndReadFirst(statement, value) == value + 1)
      }
    }
  }

  @Test(
    "a statement stepped through the C API to a row is reset before the new arguments bind",
    arguments: RebindPath.allCases)
  func afterStepToRow(binding: RebindPath) throws {
    try DatabaseQueue().read { db in
      let statement = try db.makeStatement(
        sql: "SELECT value + ? FROM (SELECT 1 AS value UNION ALL SELECT 2)")
      #expect(sqlite3_bind_int64(statement.sqliteStatement, 1, 100) == SQLITE_OK)
      #expect(sqlite3_step(statement.sqliteStatement) == SQLITE_ROW)
      #expect(sqlite3_stmt_busy(statement.sqliteStatement) != 0)
      // The new run starts from the first row, with the new argument.
      #expect(try binding.bindAndReadFirst(statement, 10) == 11)
      #expect(try Int.fetchAll(statement) == [11, 12])
    }
  }

  @Test(
    "a statement stepped through the C API to its end, and not reset, binds the new arguments",
    arguments: RebindPath.allCases)
  func afterStepToEnd(binding: RebindPath) throws {
    try DatabaseQueue().read { db in
      let statement = try db.makeStatement(sql: "SELECT ? + 1")
      #expect(sqlite3_bind_int64(statement.sqliteStatement, 1, 100) == SQLITE_OK)
      #expect(sqlite3_step(statement.sqliteStatement) == SQLITE_ROW)
      #expect(sqlite3_step(statement.sqliteStatement) == SQLITE_DONE)
      // Done, not reset: SQLite refuses a bind until a reset.
      #expect(sqlite3_stmt_busy(statement.sqliteStatement) == 0)
      #expect(try binding.bindAndReadFirst(statement, 7) == 8)
      #expect(try binding.bindAndReadFirst(statement, 8) == 9)
    }
  }

  @Test("a write statement stepped to its end through the C API runs again with new arguments")
  func writeAfterStepToEnd() throws {
    try DatabaseQueue().write { db in
      try db.execute(sql: "CREATE TABLE t (v INTEGER)")
      let statement = try db.makeStatement(sql: "INSERT INTO t (v) VALUES (?)")
      #expect(sqlite3_bind_int64(statement.sqliteStatement, 1, 1) == SQLITE_OK)
      #expect(sqlite3_step(statement.sqliteStatement) == SQLITE_DONE)
      try statement.execute(arguments: [2])
      try statement.execute(arguments: StatementArguments([3]))
      #expect(try Int.fetchAll(db, sql: "SELECT v FROM t ORDER BY v") == [1, 2, 3])
    }
  }

  @Test("a bind that fails for another reason than the statement's state still throws")
  func otherBindFailure() throws {
    try DatabaseQueue().read { db in
      let statement = try db.makeStatement(sql: "SELECT ?")
      // An integer beyond Int64 is refused by the binding itself.
      #expect(throws: (any Error).self) {
        try statement.setArguments([UInt64.max] as [(any DatabaseValueConvertible)?])
      }
      #expect(try RebindPath.singleArgument.bindAndReadFirst(statement, 4) == 4)
    }
  }

  @Test(
    "a statement stepped through the C API runs again from its first row, with its arguments",
    arguments: [1, 2, 3])
  func rerunAfterSteps(steps: Int) throws {
    try DatabaseQueue().read { db in
      let statement = try db.makeStatement(
        sql: "SELECT value * ? FROM (SELECT 1 AS value UNION ALL SELECT 2)")
      try statement.setArguments([10])
      // One step: the first row; two: the second; three: the end, not reset.
      func stepThroughCAPI() {
        for _ in 0..<steps { _ = sqlite3_step(statement.sqliteStatement) }
      }
      stepThroughCAPI()
      #expect(try Int.fetchAll(statement) == [10, 20])
      stepThroughCAPI()
      #expect(try Int.fetchOne(statement) == 10)
      stepThroughCAPI()
      #expect(try Array(Int.fetchCursor(statement)) == [10, 20])
      stepThroughCAPI()
      #expect(try Row.fetchAll(statement).map { $0[0] as Int } == [10, 20])
    }
  }
}
