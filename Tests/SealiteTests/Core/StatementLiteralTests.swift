import Foundation
import Sealite
import Testing

@Suite("Statements from SQL literals, read-only blocks")
struct StatementLiteralTests {
  @Test("makeStatement(literal:) and cachedStatement(literal:) bind the interpolated values")
  func statementsFromLiterals() throws {
    try DatabaseQueue().write { db in
      try db.execute(sql: "CREATE TABLE t(a, b)")
      let name = "O'Brien"
      try db.makeStatement(literal: "INSERT INTO t VALUES (\(1), \(name))").execute()
      let cached = try db.cachedStatement(literal: "SELECT b FROM t WHERE a = \(1)")
      #expect(try String.fetchOne(cached) == name)
      #expect(try db.cachedStatement(literal: "SELECT b FROM t WHERE a = \(2)") === cached)
      #expect(try String.fetchOne(cached) == nil)
      #expect(throws: DatabaseError.self) { try db.makeStatement(literal: "SELECT \(1); SELECT 2") }
    }
  }

  @Test("readOnly(_:) forbids writes inside, nests, and restores writes after")
  func readOnlyBlocks() throws {
    try DatabaseQueue().write { db in
      try db.execute(sql: "CREATE TABLE t(a)")
      try db.readOnly {
        #expect(db.isReadOnly)
        let error = #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(error?.resultCode == .SQLITE_READONLY)
        try db.readOnly { #expect(db.isReadOnly) }
        // Still read-only after the inner block.
        #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t VALUES (2)") }
      }
      #expect(!db.isReadOnly)
      try db.execute(sql: "INSERT INTO t VALUES (3)")
      #expect(try Int.fetchAll(db, sql: "SELECT a FROM t") == [3])
      let completion: Database.TransactionCompletion = .commit
      #expect(completion == .commit)
    }
  }
}

@Suite("allStatements(sql:arguments:)")
struct AllStatementsTests {
  @Test("Statements are compiled one at a time and take their arguments in order")
  func statementsInOrder() throws {
    try DatabaseQueue().write { db in
      let statements = try db.allStatements(
        sql: """
          CREATE TABLE player(name); INSERT INTO player VALUES (?);
          -- a comment between statements
          INSERT INTO player VALUES (?);;
          """,
        arguments: ["Arthur", "O'Brien"])
      var count = 0
      while let statement = try statements.next() {
        // The table exists when the INSERT after it compiles.
        try statement.execute()
        count += 1
      }
      #expect(count == 3)
      #expect(try statements.next() == nil)
      #expect(try String.fetchAll(db, sql: "SELECT name FROM player") == ["Arthur", "O'Brien"])

      let literal = try db.allStatements(literal: "INSERT INTO player VALUES (\("Craig")); SELECT \(1)")
      #expect(try literal.next()?.sql == "INSERT INTO player VALUES (?)")
      #expect(try literal.next().map { try Int.fetchOne($0) } == 1)
    }
  }

  @Test("Arguments left unused, or missing, are an error; without arguments none are set")
  func argumentErrors() throws {
    try DatabaseQueue().write { db in
      let extra = try db.allStatements(sql: "SELECT ?; SELECT ?", arguments: [1, 2, 3])
      _ = try extra.next()
      _ = try extra.next()
      #expect(throws: DatabaseError.self) { try extra.next() }

      let missing = try db.allStatements(sql: "SELECT ?; SELECT ?", arguments: [1])
      _ = try missing.next()
      #expect(throws: DatabaseError.self) { try missing.next() }

      let unset = try db.allStatements(sql: "SELECT ?; SELECT ?")
      let first = try #require(try unset.next())
      #expect(try Int.fetchOne(first, arguments: [7]) == 7)
      #expect(try unset.next() != nil)
      #expect(try unset.next() == nil)

      let malformed = try db.allStatements(sql: "SELECT 1; SELEC 2")
      _ = try malformed.next()
      #expect(throws: DatabaseError.self) { try malformed.next() }
    }
  }
}
