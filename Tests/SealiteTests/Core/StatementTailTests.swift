import Foundation
import Sealite
import Testing

// What follows the first statement of some SQL (SQLite's "tail") is judged
// by SQLite's own lexical rules: what SQLite would skip is no statement, what
// it would refuse or compile is one.
@Suite("The text after a statement, read as SQLite reads it")
struct StatementTailTests {
  @Test("A byte order mark after the semicolon is white space to SQLite: one statement")
  func byteOrderMarkIsSpace() throws {
    try DatabaseQueue().read { db in
      let statement = try db.makeStatement(sql: "SELECT 1;\u{FEFF} -- done")
      #expect(try Int.fetchOne(statement) == 1)
    }
  }

  @Test("A comment left open at the end is white space: one statement")
  func openCommentIsSpace() throws {
    try DatabaseQueue().read { db in
      let statement = try db.makeStatement(sql: "SELECT 2; /* never closed")
      #expect(try Int.fetchOne(statement) == 2)
    }
  }

  @Test("A vertical tab or a lone /* after the semicolon is a statement SQLite refuses")
  func refusedTailIsAStatement() throws {
    try DatabaseQueue().writeWithoutTransaction { db in
      for tail in ["\u{0B}", " /*"] {
        let error = #expect(throws: DatabaseError.self) { try db.makeStatement(sql: "SELECT 3;" + tail) }
        #expect(error?.message?.contains("multiple statements") == true)
        // execute(sql:) compiles the tail as SQLite's own sqlite3_exec does, and
        // reports the error SQLite gives for it.
        let executeError = #expect(throws: DatabaseError.self) {
          try db.execute(sql: "CREATE TABLE t(a);" + tail)
        }
        #expect(executeError?.resultCode == .SQLITE_ERROR)
        try db.execute(sql: "DROP TABLE t")
      }
    }
  }

  @Test("Trailing semicolons, spaces and comments are no statement for execute(sql:)")
  func trailingSpacesAreNoStatement() throws {
    try DatabaseQueue().writeWithoutTransaction { db in
      // The last statement is known as last, so extra arguments are refused
      // before it runs.
      #expect(throws: DatabaseError.self) {
        try db.execute(sql: "CREATE TABLE t(a); ;; -- end\n /* c */", arguments: [1])
      }
      #expect(try db.tableExists("t") == false)
      try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (?); ;; -- end\n /* c */", arguments: [1])
      #expect(try Int.fetchOne(db, sql: "SELECT a FROM t") == 1)
    }
  }
}
