import CSQLCipher
import Foundation
import Testing

// @testable: the close-time check is a test-suite facility of Core, internal by design.
@testable import Sealite

@Suite("Core: the close-time check of the test suite")
struct CloseCheckTests {
  @Test("make test turns the check on, for every connection the tests close")
  func enabledUnderMake() {
    // Outside make (a bare `swift test`) the check is off, and this says nothing.
    guard TestEnvironment.leg != nil else { return }
    #expect(CloseCheck.isEnabled)
  }

  @Test("a statement prepared with the C API and never finalized is found; one a Statement owns is not")
  func unfinalizedStatement() throws {
    guard CloseCheck.isEnabled else { return }
    let dbQueue = try DatabaseQueue()
    try dbQueue.writeWithoutTransaction { db in
      let connection = try #require(db.sqliteConnection)
      let kept = try db.makeStatement(sql: "SELECT 1")
      #expect(CloseCheck.problems(connection, statements: db.liveStatements).isEmpty)
      var raw: SQLiteStatement?
      sqlite3_prepare_v2(connection, "SELECT 2", -1, &raw, nil)
      let problems = CloseCheck.problems(connection, statements: db.liveStatements)
      #expect(problems.count == 1)
      #expect(
        problems.first?.hasPrefix("1 statement(s) prepared with the C API were never finalized") == true)
      #expect(problems.first?.contains("SELECT 2") == true)
      sqlite3_finalize(raw)
      #expect(CloseCheck.problems(connection, statements: db.liveStatements).isEmpty)
      _ = kept
    }
  }

  @Test("a transaction left open is found")
  func openTransaction() throws {
    guard CloseCheck.isEnabled else { return }
    let dbQueue = try DatabaseQueue()
    try dbQueue.writeWithoutTransaction { db in
      let connection = try #require(db.sqliteConnection)
      sqlite3_exec(connection, "BEGIN", nil, nil, nil)
      #expect(CloseCheck.problems(connection, statements: db.liveStatements) == ["a transaction is open"])
      sqlite3_exec(connection, "ROLLBACK", nil, nil, nil)
      #expect(CloseCheck.problems(connection, statements: db.liveStatements).isEmpty)
    }
  }
}
